#ifndef CHOOSY_CSYSTEM_H
#define CHOOSY_CSYSTEM_H

#include <spawn.h>
#include <sys/types.h>

#include "choosy_terminal.h"

// glibc declares these only under _GNU_SOURCE, which Swift's Glibc module is built without.

/// pipe2(fds, O_CLOEXEC): both ends close on exec, with no window for another spawn.
int choosy_pipe_cloexec(int fds[2]);

/// posix_spawn_file_actions_addchdir_np: the child's working directory.
int choosy_spawn_file_actions_addchdir(posix_spawn_file_actions_t *actions, const char *path);

/// The POSIX_SPAWN_SETSID flag: the child starts a new session.
short choosy_spawn_setsid_flag(void);

/// pidfd_open(pid, 0), close-on-exec: a descriptor that polls readable once the child has
/// exited. -1 on kernels before 5.3 (the caller then polls waitpid instead).
int choosy_pidfd_open(pid_t pid);

/// Whether the child has exited, without reaping it (waitid with WNOWAIT): while it is a
/// zombie its pid, and so its process group's id, cannot be reused. 1 exited, 0 running,
/// -1 on an error (no such child).
int choosy_has_exited(pid_t pid);

#endif
