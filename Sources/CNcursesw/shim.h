#ifndef CNCURSESW_SHIM_H
#define CNCURSESW_SHIM_H
#define NCURSES_WIDECHAR 1
#include <locale.h>
#include <wchar.h>
#include <stdio.h>
#include <signal.h>
#include <termios.h>
#include <unistd.h>
#include <ncursesw/curses.h>

// Swift cannot import macros built on NCURSES_BITS, function-like macros, or the
// mutable globals (stdscr, LINES, COLS) under strict concurrency: wrap them here.
static inline WINDOW *cn_stdscr(void) { return stdscr; }
static inline int cn_lines(void) { return LINES; }
static inline int cn_cols(void) { return COLS; }
static inline attr_t cn_a_bold(void) { return A_BOLD; }
static inline attr_t cn_a_dim(void) { return A_DIM; }
static inline attr_t cn_a_reverse(void) { return A_REVERSE; }
static inline attr_t cn_a_underline(void) { return A_UNDERLINE; }
static inline attr_t cn_a_italic(void) { return A_ITALIC; }
static inline attr_t cn_a_normal(void) { return A_NORMAL; }
static inline int cn_key_f(int n) { return KEY_F(n); }
static inline FILE *cn_stdout(void) { return stdout; }
static inline FILE *cn_stdin(void) { return stdin; }
static inline mmask_t cn_all_mouse_events(void) { return ALL_MOUSE_EVENTS | REPORT_MOUSE_POSITION; }
static inline mmask_t cn_button1_clicked(void) { return BUTTON1_CLICKED | BUTTON1_PRESSED | BUTTON1_RELEASED; }
static inline mmask_t cn_button4_pressed(void) { return BUTTON4_PRESSED; }
static inline mmask_t cn_button5_pressed(void) { return BUTTON5_PRESSED; }

/// Draws one cell: a NUL-terminated wide string (a base character and its combining marks).
static inline int cn_put_cell(int y, int x, const wchar_t *chars, attr_t attrs, short pair) {
    cchar_t cc;
    if (setcchar(&cc, chars, attrs, pair, NULL) != OK) return ERR;
    return mvadd_wch(y, x, &cc);
}

/// Makes ncurses write row `y` whole at the next refresh, whatever it believes the row holds.
static inline int cn_redraw_row(int y) { return wredrawln(stdscr, y, 1); }

// Writing a grapheme cluster that a cchar_t cannot hold (see NcursesTerminal's Glyph.swift), after
// refresh() has sent ncurses's own output. putp and vid_attr write through stdio and vid_attr keeps
// ncurses's idea of the current attributes; cn_direct_end puts the cursor back where ncurses left
// it (stdscr's cursor, where doupdate parks it) and flushes, so ncurses's next update starts from
// what it believes.

/// Whether the terminal can place the cursor anywhere (terminfo `cup`).
static inline bool cn_can_address_cursor(void) {
    const char *cup = tigetstr("cup");
    return cup != NULL && cup != (char *)-1;
}

/// Writes the UTF-8 text `utf8` at (y, x) with `attrs` and colour `pair`. `utf8` is one grapheme
/// cluster: it cannot hold the two characters "$<" that putp would read as a padding delay.
static inline int cn_direct_put(int y, int x, const char *utf8, attr_t attrs, short pair) {
    const char *cup = tigetstr("cup");
    if (cup == NULL || cup == (char *)-1) return ERR;
    putp(tiparm(cup, y, x));
    vid_attr(attrs, pair, NULL);
    return putp(utf8);
}

/// Ends a run of cn_direct_put calls: attributes off, the cursor back where ncurses has it, flushed.
static inline void cn_direct_end(void) {
    vid_attr(A_NORMAL, 0, NULL);
    const char *cup = tigetstr("cup");
    if (cup != NULL && cup != (char *)-1) putp(tiparm(cup, getcury(stdscr), getcurx(stdscr)));
    fflush(stdout);
}
#endif
