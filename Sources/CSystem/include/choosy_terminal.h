#ifndef CHOOSY_TERMINAL_H
#define CHOOSY_TERMINAL_H

// The terminal mode switch of the tty picker lives in C because the signal handler that puts
// the terminal back must be async-signal-safe, which Swift code cannot promise.

/// Switches the terminal on `fd` to byte-at-a-time input without echo and without signal
/// keys (so Esc, Ctrl-C and Ctrl-D arrive as bytes), discarding input typed before. The old
/// mode is saved; until choosy_terminal_restore, SIGINT, SIGTERM, SIGHUP and SIGQUIT (unless
/// ignored) put it back before they take their usual effect. One terminal at a time.
/// Returns 0, or -1 with errno set and nothing changed.
int choosy_terminal_enter_raw(int fd);

/// Puts back the mode and the signal dispositions saved by choosy_terminal_enter_raw, after
/// pending output is written. Does nothing when no mode is saved.
void choosy_terminal_restore(void);

#endif
