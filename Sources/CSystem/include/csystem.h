#ifndef CHOOSY_CSYSTEM_H
#define CHOOSY_CSYSTEM_H

#include <spawn.h>
#include <sys/types.h>

#include "choosy_terminal.h"

// glibc declares these only under _GNU_SOURCE, which Swift's Glibc module is built without.

/// pipe2(fds, O_CLOEXEC): both ends close on exec, with no window for another spawn.
int choosy_pipe_cloexec(int fds[2]);

/// memrchr: the last `c` in the `n` bytes at `s`, or NULL.
void *choosy_memrchr(const void *s, int c, size_t n);

/// posix_spawn_file_actions_addchdir_np: the child's working directory.
int choosy_spawn_file_actions_addchdir(posix_spawn_file_actions_t *actions, const char *path);

/// The POSIX_SPAWN_SETSID flag: the child starts a new session.
short choosy_spawn_setsid_flag(void);

/// Connects a stream socket to the Unix socket `path` (in the abstract namespace when
/// `abstract` is non-zero) and closes it again: 0 when the connection was accepted.
int choosy_unix_socket_accepts(const char *path, int abstract);

/// A stream socket connected to the Unix socket `path`, non-blocking and close-on-exec: a
/// listener whose queue is full refuses at once (EAGAIN) instead of holding the caller.
/// Returns the descriptor, or -1 with errno set.
int choosy_unix_socket_connect(const char *path);

/// The same for `host`:`port` over TCP, waiting at most `timeout_ms` for each address.
int choosy_tcp_socket_accepts(const char *host, int port, int timeout_ms);

/// Starts `path` with `argv` and `envp` in a new session, stdio on /dev/null, in
/// `directory` (when not NULL), with default signal handling and nothing blocked. When
/// `pid_slot` >= 0, `envp[pid_slot]` must be "NAME=" followed by 20 spaces: the child
/// writes its own pid there before exec (GIO's GIO_LAUNCHED_DESKTOP_FILE_PID, which
/// posix_spawn cannot give). Returns the child's pid, or -1 with errno set to why the
/// child could not start (fork, chdir or exec failed).
int choosy_spawn_detached(const char *path, char *const argv[], char *const envp[], int pid_slot, const char *directory);

/// pidfd_open(pid, 0), close-on-exec: a descriptor that polls readable once the child has
/// exited. -1 on kernels before 5.3 (the caller then polls waitpid instead).
int choosy_pidfd_open(pid_t pid);

/// Whether the child has exited, without reaping it (waitid with WNOWAIT): while it is a
/// zombie its pid, and so its process group's id, cannot be reused. 1 exited, 0 running,
/// -1 on an error (no such child).
int choosy_has_exited(pid_t pid);

/// libxcb's xcb_screen_iterator_t and its cookies (xcb.h, xproto.h), whose layouts are part
/// of libxcb.so.1's stable ABI: ChoosyKit loads libxcb with dlopen and calls the functions
/// that take or return them by value through these types, so no libxcb header is needed.
typedef struct {
    void *data;
    int rem;
    int index;
} choosy_xcb_screen_iterator;

typedef struct {
    unsigned int sequence;
} choosy_xcb_cookie;

#endif
