/* crt.c - the terminal: the only file that calls initscr/endwin.  Colours with a monochrome
 * fallback, UTF-8 detection, and restoration of the terminal on fatal signals and on
 * out-of-memory (htop's CRT.c). */
#include <curses.h>
#include <langinfo.h>
#include <locale.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tui_int.h"

static SCREEN *screen;
static volatile sig_atomic_t active;
static bool colors, utf8;
static int attrs[TN_CR_COUNT];

static const int fatal_signals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};

/* A crash must not leave the user's terminal in raw mode.  endwin() is not async-signal-safe in
 * the letter of POSIX, but every curses application does this (htop's CRT_handleSIGSEGV): the
 * process is about to die anyway, and the alternative is a terminal the user must `reset`. */
static void on_fatal(int sig)
{
    if (active) {
        active = 0;
        endwin();
        static const char msg[] = "tcptrace-ng: fatal signal in the dashboard; terminal restored\n";
        ssize_t w = write(STDERR_FILENO, msg, sizeof msg - 1);
        (void)w;
    }
    signal(sig, SIG_DFL);
    raise(sig);
}

static void fatal_hook(void)
{
    tn_crt_done();
}

static void init_colors(void)
{
    static const struct {
        enum tn_crt_color c;
        short fg, bg;
        int extra, mono;
    } tab[] = {
        {TN_CR_TITLE, COLOR_BLACK, COLOR_CYAN, 0, A_REVERSE | A_BOLD},
        {TN_CR_HEADER, COLOR_BLACK, COLOR_GREEN, 0, A_BOLD | A_UNDERLINE},
        {TN_CR_SELECTED, COLOR_BLACK, COLOR_CYAN, 0, A_REVERSE},
        {TN_CR_STATUS, COLOR_WHITE, COLOR_BLUE, 0, A_REVERSE},
        {TN_CR_KEY, COLOR_WHITE, -1, A_BOLD, A_BOLD},
        {TN_CR_KEYTEXT, COLOR_BLACK, COLOR_CYAN, 0, A_REVERSE},
        {TN_CR_WARN, COLOR_RED, -1, A_BOLD, A_BOLD},
        {TN_CR_GOOD, COLOR_GREEN, -1, 0, A_NORMAL},
        {TN_CR_DIM, COLOR_BLUE, -1, A_BOLD, A_DIM},
        {TN_CR_PLOT1, COLOR_CYAN, -1, 0, A_NORMAL},
        {TN_CR_PLOT2, COLOR_YELLOW, -1, 0, A_BOLD},
        {TN_CR_BAR, COLOR_GREEN, -1, 0, A_NORMAL},
    };
    attrs[TN_CR_DEFAULT] = A_NORMAL;
    for (size_t i = 0; i < TN_ARRAY_LEN(tab); i++) {
        if (!colors) {
            attrs[tab[i].c] = tab[i].mono;
            continue;
        }
        init_pair((short)tab[i].c, tab[i].fg, tab[i].bg);
        attrs[tab[i].c] = (int)COLOR_PAIR(tab[i].c) | tab[i].extra;
    }
}

int tn_crt_init(struct tn_err *err)
{
    if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO))
        return tn_err_set(err, TN_EIO, "--tui needs a terminal on standard input and output");
    /* LC_CTYPE only: the final report's numbers must keep their '.' (LC_NUMERIC stays "C"). */
    setlocale(LC_CTYPE, "");
    utf8 = strcmp(nl_langinfo(CODESET), "UTF-8") == 0;
    screen = newterm(NULL, stdout, stdin);
    if (!screen)
        return tn_err_set(err, TN_EIO, "--tui: cannot use terminal type '%s'",
                          getenv("TERM") ? getenv("TERM") : "(unset)");
    set_term(screen);
    active = 1;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_fatal;
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < TN_ARRAY_LEN(fatal_signals); i++)
        sigaction(fatal_signals[i], &sa, NULL);
    tn_set_fatal_hook(fatal_hook);
    cbreak();   /* not raw(): Ctrl-C stays a signal, which ends the run cleanly */
    noecho();
    nonl();
    keypad(stdscr, TRUE);
    set_escdelay(25);
    curs_set(0);
    colors = has_colors() && !getenv("NO_COLOR");
    if (colors) {
        start_color();
        use_default_colors();
    }
    init_colors();
    return 0;
}

void tn_crt_done(void)
{
    if (!active)
        return;
    active = 0;
    curs_set(1);
    endwin();
    delscreen(screen);
    screen = NULL;
    tn_set_fatal_hook(NULL);
    for (size_t i = 0; i < TN_ARRAY_LEN(fatal_signals); i++)
        signal(fatal_signals[i], SIG_DFL);
}

int tn_crt_attr(enum tn_crt_color c)
{
    return attrs[c];
}

bool tn_crt_utf8(void)
{
    return utf8;
}

bool tn_crt_colors(void)
{
    return colors;
}
