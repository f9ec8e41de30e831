#include <errno.h>
#include <signal.h>
#include <stddef.h>
#include <termios.h>

#include "choosy_terminal.h"

static const int restoring_signals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};
#define RESTORING_SIGNAL_COUNT (sizeof restoring_signals / sizeof restoring_signals[0])

static struct termios saved_mode;
static volatile sig_atomic_t saved_fd = -1;
static struct sigaction previous_actions[RESTORING_SIGNAL_COUNT];
static volatile sig_atomic_t installed[RESTORING_SIGNAL_COUNT];

static void put_back_handlers(void) {
    for (unsigned i = 0; i < RESTORING_SIGNAL_COUNT; i++) {
        if (installed[i]) {
            sigaction(restoring_signals[i], &previous_actions[i], NULL);
            installed[i] = 0;
        }
    }
}

// Only async-signal-safe calls: tcsetattr, sigaction, raise. The signal stays blocked until
// the handler returns, so the re-raised one then meets the previous disposition.
static void restore_and_resend(int signal_number) {
    int saved_errno = errno;
    if (saved_fd >= 0) {
        tcsetattr(saved_fd, TCSANOW, &saved_mode);
    }
    for (unsigned i = 0; i < RESTORING_SIGNAL_COUNT; i++) {
        if (restoring_signals[i] == signal_number && installed[i]) {
            sigaction(signal_number, &previous_actions[i], NULL);
            installed[i] = 0;
        }
    }
    raise(signal_number);
    errno = saved_errno;
}

int choosy_terminal_enter_raw(int fd) {
    struct termios raw;
    if (tcgetattr(fd, &saved_mode) != 0) {
        return -1;
    }
    raw = saved_mode;
    raw.c_lflag &= ~(tcflag_t)(ICANON | ECHO | ISIG | IEXTEN);
    raw.c_iflag &= ~(tcflag_t)IXON;
    raw.c_cc[VMIN] = 1;
    raw.c_cc[VTIME] = 0;

    saved_fd = fd;
    struct sigaction action = {0};
    action.sa_handler = restore_and_resend;
    sigemptyset(&action.sa_mask);
    for (unsigned i = 0; i < RESTORING_SIGNAL_COUNT; i++) {
        struct sigaction current;
        // A signal ignored by whoever started us (nohup) stays ignored.
        if (sigaction(restoring_signals[i], NULL, &current) == 0 && current.sa_handler != SIG_IGN) {
            previous_actions[i] = current;
            installed[i] = 1;
            sigaction(restoring_signals[i], &action, NULL);
        }
    }
    if (tcsetattr(fd, TCSAFLUSH, &raw) != 0) {
        int failure = errno;
        put_back_handlers();
        saved_fd = -1;
        errno = failure;
        return -1;
    }
    return 0;
}

void choosy_terminal_restore(void) {
    if (saved_fd < 0) {
        return;
    }
    tcsetattr(saved_fd, TCSADRAIN, &saved_mode);
    put_back_handlers();
    saved_fd = -1;
}
