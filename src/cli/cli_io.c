/*
 * cli_io.c - a command's standard input (non-blocking, read by the event
 * loop, restored at exit) and the child processes of this binary that
 * benchmarks start.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <termios.h>

#include "cli.h"
#include "ipxlab/bench_ncp.h"
#include "ipxlab/err.h"

/* O_NONBLOCK belongs to the open file, which a terminal shares with the
 * shell: whoever sets it on stdin puts the original flags back at exit. */
static int stdin_saved_flags = -1;

static void stdin_restore_flags(void)
{
	if (stdin_saved_flags >= 0)
		fcntl(STDIN_FILENO, F_SETFL, stdin_saved_flags);
}

bool cli_stdin_nonblock(void)
{
	int flags = fcntl(STDIN_FILENO, F_GETFL);

	if (flags < 0)
		return false;
	if (stdin_saved_flags < 0) {
		stdin_saved_flags = flags;
		atexit(stdin_restore_flags);
	}
	fcntl(STDIN_FILENO, F_SETFL, flags | O_NONBLOCK);
	return true;
}

bool cli_stdin_watch(struct ipx_loop *loop, ipx_fd_cb cb, void *ctx)
{
	if (!cli_stdin_nonblock())
		return false;
	if (ipx_loop_add_fd(loop, STDIN_FILENO, IPX_EV_READ, cb, ctx) ==
	    IPX_OK)
		return true;
	/* Not pollable (EPERM): plain blocking reads, as it was. */
	stdin_restore_flags();
	return false;
}

struct stdin_feed {
	void (*feed)(void *ctx, const char *buf, size_t n);
	void *ctx;
	bool eof;
};

static void on_stdin_chunk(struct ipx_loop *loop, int fd, unsigned events,
			   void *ctx)
{
	struct stdin_feed *f = ctx;
	char buf[4096];
	ssize_t n = read(fd, buf, sizeof(buf));

	(void)events;
	if (n > 0) {
		f->feed(f->ctx, buf, (size_t)n);
		return;
	}
	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return;
	f->eof = true;
	ipx_loop_del_fd(loop, fd);
}

static bool stdin_ended(void *ctx)
{
	return ((struct stdin_feed *)ctx)->eof;
}

int cli_stdin_lines(struct ipx_loop *loop,
		    void (*feed)(void *ctx, const char *buf, size_t n),
		    void *ctx)
{
	struct stdin_feed f = { .feed = feed, .ctx = ctx };
	char buf[4096];
	ssize_t n;

	if (cli_stdin_watch(loop, on_stdin_chunk, &f))
		return ipx_loop_run_until(loop, stdin_ended, &f,
					  UINT64_MAX / 4);
	/* Read straight through, letting the loop run between chunks. */
	while ((n = read(STDIN_FILENO, buf, sizeof(buf))) > 0 ||
	       (n < 0 && errno == EINTR)) {
		if (n > 0)
			feed(ctx, buf, (size_t)n);
		if (ipx_loop_run_once(loop, 0) == IPX_ECLOSED ||
		    ipx_loop_stopped(loop))
			return IPX_ECLOSED;
	}
	return IPX_OK;
}

/* ---- child processes of this binary (benchmarks) ---- */

pid_t cli_spawn_self(char *const argv[])
{
	pid_t pid = fork();

	if (pid == 0) {
		int null = open("/dev/null", O_RDWR);

		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (null >= 0) {	/* errors show as the run failing */
			dup2(null, STDIN_FILENO);
			dup2(null, STDOUT_FILENO);
			dup2(null, STDERR_FILENO);
		}
		execv("/proc/self/exe", argv);
		_exit(127);
	}
	return pid;
}

void cli_stop_child(pid_t *pid)
{
	if (*pid > 0) {
		kill(*pid, SIGTERM);
		waitpid(*pid, NULL, 0);
		*pid = 0;
	}
}

int cli_free_udp_port(void)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	socklen_t l = sizeof(a);
	int fd = socket(AF_INET, SOCK_DGRAM, 0), port = 0;

	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (fd >= 0 && bind(fd, (struct sockaddr *)&a, sizeof(a)) == 0 &&
	    getsockname(fd, (struct sockaddr *)&a, &l) == 0)
		port = ntohs(a.sin_port);
	if (fd >= 0)
		close(fd);
	return port;
}

void cli_remove_tree(const char *dir)
{
	ipx_bn_fixtures_remove(dir);
}

/* -u without -p, stdin a terminal: ask, without echo (as LOGIN did). NULL
 * if stdin is no terminal (a script: no password, as before) or the
 * answer cannot be read. */
static struct termios tty_saved;
static int tty_fd = -1;

static void tty_restore(int sig)
{
	if (tty_fd >= 0)
		tcsetattr(tty_fd, TCSAFLUSH, &tty_saved);
	if (sig) {
		signal(sig, SIG_DFL);
		raise(sig);
	}
}

const char *cli_ask_password(const char *user, char *buf, size_t cap)
{
	struct termios t;
	void (*old_int)(int), (*old_term)(int);
	int fd = STDIN_FILENO;
	size_t n = 0;
	bool ok = false;

	if (!isatty(fd) || tcgetattr(fd, &tty_saved) < 0)
		return NULL;
	fprintf(stderr, "Password for %s: ", user);
	fflush(stderr);
	t = tty_saved;
	t.c_lflag &= ~(tcflag_t)ECHO;
	t.c_lflag |= ICANON;
	tty_fd = fd;
	old_int = signal(SIGINT, tty_restore);
	old_term = signal(SIGTERM, tty_restore);
	tcsetattr(fd, TCSAFLUSH, &t);
	for (;;) {
		char ch;
		ssize_t r = read(fd, &ch, 1);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		if (ch == '\n' || ch == '\r') {
			ok = true;
			break;
		}
		if (n + 1 < cap)
			buf[n++] = ch;
	}
	buf[n] = '\0';
	tty_restore(0);
	tty_fd = -1;
	signal(SIGINT, old_int);
	signal(SIGTERM, old_term);
	fputc('\n', stderr);
	return ok ? buf : NULL;
}
