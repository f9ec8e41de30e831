#ifndef CHOOSY_CSYSTEM_H
#define CHOOSY_CSYSTEM_H

#include <spawn.h>

#include "choosy_terminal.h"

// glibc declares these only under _GNU_SOURCE, which Swift's Glibc module is built without.

/// pipe2(fds, O_CLOEXEC): both ends close on exec, with no window for another spawn.
int choosy_pipe_cloexec(int fds[2]);

/// posix_spawn_file_actions_addchdir_np: the child's working directory.
int choosy_spawn_file_actions_addchdir(posix_spawn_file_actions_t *actions, const char *path);

/// The POSIX_SPAWN_SETSID flag: the child starts a new session.
short choosy_spawn_setsid_flag(void);

#endif
