/*
 * fsnet.c - ipxlab's file server as a child of the benchmark
 * (bench_fsnet.h), forked as harness_net.c forks the hub and the agents:
 * the child joins the hub, opens the server on the volume and reports
 * "" (up) or what went wrong through a pipe, then serves until SIGTERM.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ipxlab/bench_fsnet.h"
#include "ipxlab/bench_harness.h"
#include "ipxlab/config.h"
#include "ipxlab/diag.h"
#include "ipxlab/err.h"
#include "ipxlab/loop.h"
#include "ipxlab/ncp_server.h"
#include "ipxlab/node.h"
#include "ipxlab/ping.h"
#include "ipxlab/rip.h"

#define REPORT_LEN 256
#define START_MS 10000	/* beyond 'wait': the server's own start */

static void on_term(struct ipx_loop *loop, int signo, void *ctx)
{
	(void)signo;
	(void)ctx;
	ipx_loop_stop(loop);
}

static void report(int fd, const char *text)
{
	char buf[REPORT_LEN] = { 0 };

	snprintf(buf, sizeof(buf), "%s", text);
	if (write(fd, buf, sizeof(buf)) < 0)
		_exit(1);
	close(fd);
}

static void server_main(int fd, const struct sockaddr_in *hub,
			const char *name, const char *dir, ipx_time wait)
	__attribute__((noreturn));
static void server_main(int fd, const struct sockaddr_in *hub,
			const char *name, const char *dir, ipx_time wait)
{
	static const int sigs[] = { SIGTERM };
	struct ncp_server_opts so;
	struct ipx_config cfg;
	struct ipx_loop *loop;
	struct ipx_node *node;
	struct ncp_server *srv;
	struct ipx_rip *rip = NULL;
	struct ipx_diag *diag = NULL;
	struct ipx_ping_responder *pong = NULL;
	char err[REPORT_LEN - 8];

	memset(&so, 0, sizeof(so));
	so.name = name;
	so.name_check = IPX_SEC;	/* refuse a name another server has */
	so.nvolumes = 1;
	snprintf(so.volumes[0].name, sizeof(so.volumes[0].name), "SYS");
	if (strlen(dir) >= sizeof(so.volumes[0].dir)) {
		report(fd, "volume directory name too long");
		_exit(1);
	}
	snprintf(so.volumes[0].dir, sizeof(so.volumes[0].dir), "%s", dir);
	ipx_config_defaults(&cfg);
	if (ipx_hnet_join(hub, &cfg, wait, &loop, &node, err, sizeof(err)) !=
	    IPX_OK) {
		report(fd, err);
		_exit(1);
	}
	/* what every ipxlab node answers (as 'ipxlab server' does): routing,
	 * diagnostics and the workstations' pings of the server */
	if (ipx_rip_new(node, NULL, &rip) != IPX_OK ||
	    ipx_diag_new(node, &diag) != IPX_OK ||
	    ipx_ping_responder_new(node, &pong) != IPX_OK) {
		report(fd, "cannot start RIP, diagnostics or the ping responder");
		_exit(1);
	}
	if (ncp_server_new(node, &so, &srv, err, sizeof(err)) != IPX_OK) {
		report(fd, err);
		_exit(1);
	}
	ipx_loop_watch_signals(loop, sigs, 1, on_term, NULL);
	report(fd, "");
	ipx_loop_run(loop);
	ncp_server_free(srv);	/* SAP: going down */
	ipx_loop_run_once(loop, 0);
	ipx_ping_responder_free(pong);
	ipx_diag_free(diag);
	ipx_rip_free(rip);
	ipx_node_free(node);
	ipx_loop_free(loop);
	_exit(0);
}

/* The child's first steps: die with the parent, default signals, quiet. */
static void prologue(pid_t parent)
{
	sigset_t none;
	int null = open("/dev/null", O_RDWR);

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(1);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	signal(SIGINT, SIG_IGN);	/* the benchmark stops us */
	signal(SIGPIPE, SIG_IGN);
	signal(SIGTERM, SIG_DFL);
	if (null >= 0) {
		dup2(null, STDIN_FILENO);
		dup2(null, STDOUT_FILENO);
		dup2(null, STDERR_FILENO);
		if (null > STDERR_FILENO)
			close(null);
	}
}

int ipx_fsrv_fork(const struct sockaddr_in *hub, const char *name,
		  const char *dir, ipx_time wait, pid_t *pid, char *err,
		  size_t errlen)
{
	struct pollfd p;
	char text[REPORT_LEN], why[80];
	pid_t parent = getpid();
	ssize_t n = -1;
	int fds[2], status;

	*pid = 0;
	if (pipe2(fds, O_CLOEXEC) < 0) {
		snprintf(err, errlen, "pipe: %s", strerror(errno));
		return IPX_EIO;
	}
	fflush(NULL);
	*pid = fork();
	if (*pid < 0) {
		*pid = 0;
		close(fds[0]);
		close(fds[1]);
		snprintf(err, errlen, "fork: %s", strerror(errno));
		return IPX_EIO;
	}
	if (*pid == 0) {
		close(fds[0]);
		prologue(parent);
		server_main(fds[1], hub, name, dir, wait);
	}
	close(fds[1]);
	p.fd = fds[0];
	p.events = POLLIN;
	if (poll(&p, 1, (int)(wait / IPX_MSEC) + START_MS) > 0)
		n = read(fds[0], text, sizeof(text));
	close(fds[0]);
	if (n == (ssize_t)sizeof(text) && !text[0])
		return IPX_OK;
	if (n == (ssize_t)sizeof(text)) {
		text[sizeof(text) - 1] = '\0';
		snprintf(err, errlen, "file server: %s", text);
	} else if (n == 0 && waitpid(*pid, &status, 0) == *pid) {
		snprintf(err, errlen, "file server (pid %d) %s while starting",
			 (int)*pid, ipx_hnet_exit_text(status, why, sizeof(why)));
		*pid = 0;
		return IPX_EIO;
	} else {
		snprintf(err, errlen, "file server (pid %d) did not start",
			 (int)*pid);
	}
	ipx_fsrv_stop(pid);
	return IPX_EIO;
}

void ipx_fsrv_stop(pid_t *pid)
{
	if (*pid > 0) {
		kill(*pid, SIGTERM);
		waitpid(*pid, NULL, 0);
		*pid = 0;
	}
}
