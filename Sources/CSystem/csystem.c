#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "csystem.h"

int choosy_pipe_cloexec(int fds[2]) {
    return pipe2(fds, O_CLOEXEC);
}

void *choosy_memrchr(const void *s, int c, size_t n) {
    return memrchr(s, c, n);
}

int choosy_spawn_file_actions_addchdir(posix_spawn_file_actions_t *actions, const char *path) {
    return posix_spawn_file_actions_addchdir_np(actions, path);
}

short choosy_spawn_setsid_flag(void) {
    return POSIX_SPAWN_SETSID;
}

// The address of the Unix socket `path` (abstract: in Linux's abstract namespace), and its
// length; 0 when the path does not fit.
static socklen_t unix_address(const char *path, int abstract, struct sockaddr_un *address) {
    memset(address, 0, sizeof *address);
    address->sun_family = AF_UNIX;
    size_t length = strlen(path);
    size_t offset = abstract ? 1 : 0;
    if (length + offset >= sizeof address->sun_path) {
        return 0;
    }
    memcpy(address->sun_path + offset, path, length);
    return (socklen_t)(offsetof(struct sockaddr_un, sun_path) + offset + length + (abstract ? 0 : 1));
}

int choosy_unix_socket_accepts(const char *path, int abstract) {
    struct sockaddr_un address;
    socklen_t size = unix_address(path, abstract, &address);
    if (size == 0) {
        return -1;
    }
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        return -1;
    }
    int result = connect(fd, (struct sockaddr *)&address, size);
    close(fd);
    return result == 0 ? 0 : -1;
}

int choosy_unix_socket_connect(const char *path) {
    struct sockaddr_un address;
    socklen_t size = unix_address(path, 0, &address);
    if (size == 0) {
        errno = ENAMETOOLONG;
        return -1;
    }
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    if (fd < 0) {
        return -1;
    }
    if (connect(fd, (struct sockaddr *)&address, size) != 0) {
        int failure = errno;
        close(fd);
        errno = failure;
        return -1;
    }
    return fd;
}

int choosy_tcp_socket_accepts(const char *host, int port, int timeout_ms) {
    char service[16];
    snprintf(service, sizeof service, "%d", port);
    struct addrinfo hints;
    memset(&hints, 0, sizeof hints);
    hints.ai_socktype = SOCK_STREAM;
    struct addrinfo *found = NULL;
    if (getaddrinfo(host, service, &hints, &found) != 0) {
        return -1;
    }
    int accepted = -1;
    for (struct addrinfo *each = found; each != NULL && accepted != 0; each = each->ai_next) {
        int fd = socket(each->ai_family, each->ai_socktype | SOCK_CLOEXEC | SOCK_NONBLOCK, each->ai_protocol);
        if (fd < 0) {
            continue;
        }
        if (connect(fd, each->ai_addr, each->ai_addrlen) == 0) {
            accepted = 0;
        } else if (errno == EINPROGRESS) {
            struct pollfd wait = {fd, POLLOUT, 0};
            int error = 0;
            socklen_t size = sizeof error;
            if (poll(&wait, 1, timeout_ms) == 1 && getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &size) == 0 && error == 0) {
                accepted = 0;
            }
        }
        close(fd);
    }
    freeaddrinfo(found);
    return accepted;
}

// Between fork and exec only async-signal-safe calls: the pid is written by hand.
int choosy_spawn_detached(const char *path, char *const argv[], char *const envp[], int pid_slot, const char *directory) {
    int report[2];
    if (pipe2(report, O_CLOEXEC) != 0) {
        return -1;
    }
    pid_t pid = fork();
    if (pid < 0) {
        int failure = errno;
        close(report[0]);
        close(report[1]);
        errno = failure;
        return -1;
    }
    if (pid == 0) {
        close(report[0]);
        setsid();
        sigset_t none;
        sigemptyset(&none);
        sigprocmask(SIG_SETMASK, &none, NULL);
        const int reset[] = {SIGPIPE, SIGINT, SIGQUIT, SIGTERM, SIGCHLD, SIGHUP};
        for (unsigned i = 0; i < sizeof reset / sizeof reset[0]; i++) {
            signal(reset[i], SIG_DFL);
        }
        int null_in = open("/dev/null", O_RDONLY);
        int null_out = open("/dev/null", O_WRONLY);
        if (null_in >= 0 && null_out >= 0) {
            dup2(null_in, 0);
            dup2(null_out, 1);
            dup2(null_out, 2);
        }
        if (null_in > 2) close(null_in);
        if (null_out > 2) close(null_out);
        if (pid_slot >= 0) {
            char *slot = strchr(envp[pid_slot], '=') + 1;
            char digits[20];
            int count = 0;
            for (pid_t value = getpid(); value > 0 && count < 20; value /= 10) {
                digits[count++] = (char)('0' + value % 10);
            }
            while (count > 0) {
                *slot++ = digits[--count];
            }
            *slot = '\0';
        }
        if (directory == NULL || chdir(directory) == 0) {
            execve(path, argv, envp);
        }
        int failure = errno;
        ssize_t ignored = write(report[1], &failure, sizeof failure);
        (void)ignored;
        _exit(127);
    }
    close(report[1]);
    int failure = 0;
    ssize_t count;
    do {
        count = read(report[0], &failure, sizeof failure);
    } while (count < 0 && errno == EINTR);
    close(report[0]);
    if (count == (ssize_t)sizeof failure) {
        int status;
        while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
        }
        errno = failure;
        return -1;
    }
    return pid;
}

int choosy_pidfd_open(pid_t pid) {
#ifdef SYS_pidfd_open
    int fd = (int)syscall(SYS_pidfd_open, pid, 0);
    if (fd >= 0) fcntl(fd, F_SETFD, FD_CLOEXEC);
    return fd;
#else
    (void)pid;
    return -1;
#endif
}

int choosy_has_exited(pid_t pid) {
    siginfo_t info;
    memset(&info, 0, sizeof info);
    if (waitid(P_PID, (id_t)pid, &info, WEXITED | WNOHANG | WNOWAIT) < 0) return -1;
    return info.si_pid == pid ? 1 : 0;
}
