/*
 * fsnet.c - ipxlab's file server as a child of the benchmark
 * (bench_fsnet.h), forked as harness_net.c forks the hub and the agents:
 * the child joins the hub, opens the server on the volume and reports
 * "" (up) or what went wrong through a pipe, then serves until SIGTERM;
 * and the WAN bridge of B6 the same way: a port on the workstations' hub
 * and the far hub it serves, joined by ipx_wan.
 */
#include <arpa/inet.h>
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

#include "bench_util.h"
#include "ipxlab/bench_fsnet.h"
#include "ipxlab/bench_harness.h"
#include "ipxlab/config.h"
#include "ipxlab/diag.h"
#include "ipxlab/hub.h"
#include "ipxlab/hub_port.h"
#include "ipxlab/err.h"
#include "ipxlab/loop.h"
#include "ipxlab/ncp_server.h"
#include "ipxlab/node.h"
#include "ipxlab/ping.h"
#include "ipxlab/rip.h"
#include "ipxlab/wan.h"

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
			const char *name, const char *dir, unsigned max_buffer,
			ipx_time wait) __attribute__((noreturn));
static void server_main(int fd, const struct sockaddr_in *hub,
			const char *name, const char *dir, unsigned max_buffer,
			ipx_time wait)
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
	so.max_buffer = max_buffer;
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

/* The child's report on fds[0]: IPX_OK when it is up, else the error
 * (the child waited for and *pid 0, or stopped). */
static int await_report(int fd, const char *what, ipx_time wait, pid_t *pid,
			char *text, char *err, size_t errlen)
{
	char why[80];
	ssize_t n = -1;
	int status, w = ipx_bench_wait_readable(fd, (int)(wait / IPX_MSEC) +
							   START_MS);

	if (w > 0)
		n = read(fd, text, REPORT_LEN);
	close(fd);
	if (w < 0) {	/* Ctrl-C while it starts */
		snprintf(err, errlen, "%s: interrupted while starting", what);
		kill(*pid, SIGKILL);	/* nothing of it to keep: at once */
		waitpid(*pid, NULL, 0);
		*pid = 0;
		return IPX_ECLOSED;
	}
	if (n == (ssize_t)REPORT_LEN && !text[0])
		return IPX_OK;
	if (n == (ssize_t)REPORT_LEN) {
		text[REPORT_LEN - 1] = '\0';
		snprintf(err, errlen, "%s: %s", what, text);
	} else if (n == 0 && waitpid(*pid, &status, 0) == *pid) {
		snprintf(err, errlen, "%s (pid %d) %s while starting", what,
			 (int)*pid, ipx_hnet_exit_text(status, why, sizeof(why)));
		*pid = 0;
		return IPX_EIO;
	} else {
		snprintf(err, errlen, "%s (pid %d) did not start", what,
			 (int)*pid);
	}
	ipx_fsrv_stop(pid);
	return IPX_EIO;
}

/* fork with a report pipe: in the child (*pid 0) fds[1] to write, in the
 * parent fds[0] to read; IPX_OK or an error with a message. */
static int fork_child(int fds[2], pid_t *pid, char *err, size_t errlen)
{
	pid_t parent = getpid();

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
		*pid = -1;	/* the child */
		return IPX_OK;
	}
	close(fds[1]);
	return IPX_OK;
}

int ipx_fsrv_fork_buf(const struct sockaddr_in *hub, const char *name,
		      const char *dir, unsigned max_buffer, ipx_time wait,
		      pid_t *pid, char *err, size_t errlen)
{
	char text[REPORT_LEN];
	int fds[2];

	if (fork_child(fds, pid, err, errlen) != IPX_OK)
		return IPX_EIO;
	if (*pid < 0)
		server_main(fds[1], hub, name, dir, max_buffer, wait);
	return await_report(fds[0], "file server", wait, pid, text, err,
			    errlen);
}

int ipx_fsrv_fork(const struct sockaddr_in *hub, const char *name,
		  const char *dir, ipx_time wait, pid_t *pid, char *err,
		  size_t errlen)
{
	return ipx_fsrv_fork_buf(hub, name, dir, 0, wait, pid, err, errlen);
}

void ipx_fsrv_stop(pid_t *pid)
{
	if (*pid > 0) {
		kill(*pid, SIGTERM);
		waitpid(*pid, NULL, 0);
		*pid = 0;
	}
}

/* ---- the WAN bridge ---- */

struct bridge {
	struct ipx_loop *loop;
	struct ipx_wan *wan;
	struct ipx_hub *hub;		/* side 0: the far hub, served */
	struct ipx_hub_port *port;	/* side 1: a port on the near hub */
};

static void from_hub(const uint8_t *pkt, size_t len, void *ctx)
{
	ipx_wan_input(((struct bridge *)ctx)->wan, 0, pkt, len);
}

static void from_port(struct ipx_hub_port *p, const uint8_t *pkt, size_t len,
		      void *ctx)
{
	(void)p;
	ipx_wan_input(((struct bridge *)ctx)->wan, 1, pkt, len);
}

/* The near hub refused the port or never answered: stop (the run fails
 * finding the far server). */
static void port_state(struct ipx_hub_port *p, enum ipx_hub_port_state st,
		       void *ctx)
{
	(void)p;
	if (st == IPX_HUB_PORT_NO_ANSWER || st == IPX_HUB_PORT_UNSUPPORTED ||
	    st == IPX_HUB_PORT_REFUSED)
		ipx_loop_stop(((struct bridge *)ctx)->loop);
}

static void to_side(unsigned s, const uint8_t *pkt, size_t len, void *ctx)
{
	struct bridge *b = ctx;

	if (s == 0)
		ipx_hub_deliver(b->hub, pkt, len);
	else
		ipx_hub_port_send(b->port, pkt, len);
}

static void bridge_main(int fd, const struct sockaddr_in *near,
			const struct ipx_profile *trunk,
			const struct ipx_profile *segment)
	__attribute__((noreturn));
static void bridge_main(int fd, const struct sockaddr_in *near,
			const struct ipx_profile *trunk,
			const struct ipx_profile *segment)
{
	static const int sigs[] = { SIGTERM };
	struct ipx_hub_options ho = { .profile = segment };
	struct bridge b = { .loop = ipx_loop_new(NULL) };
	struct sockaddr_in local;
	char err[REPORT_LEN - 8], buf[REPORT_LEN] = { 0 };

	ho.bind.sin_family = AF_INET;
	ho.bind.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (!b.loop ||
	    ipx_wan_new(b.loop, trunk, 1, to_side, &b, &b.wan) != IPX_OK) {
		report(fd, "out of memory");
		_exit(1);
	}
	if (ipx_hub_open(b.loop, &ho, &b.hub, err, sizeof(err)) != IPX_OK) {
		report(fd, err);
		_exit(1);
	}
	ipx_hub_set_uplink(b.hub, from_hub, &b);
	if (ipx_hub_port_open(b.loop, near, 0, from_port, port_state, &b,
			      &b.port) != IPX_OK) {
		report(fd, "cannot open the bridge port on the hub");
		_exit(1);
	}
	ipx_loop_watch_signals(b.loop, sigs, 1, on_term, NULL);
	ipx_hub_local(b.hub, &local);
	memcpy(buf + 1, &local, sizeof(local));	/* after the "" of up */
	if (write(fd, buf, sizeof(buf)) < 0)
		_exit(1);
	close(fd);
	ipx_loop_run(b.loop);
	ipx_hub_port_close(b.port);
	ipx_hub_close(b.hub);
	ipx_wan_free(b.wan);
	ipx_loop_free(b.loop);
	_exit(0);
}

int ipx_wanbr_fork(const struct sockaddr_in *near,
		   const struct ipx_profile *trunk,
		   const struct ipx_profile *segment, ipx_time wait,
		   struct sockaddr_in *far, pid_t *pid, char *err,
		   size_t errlen)
{
	char text[REPORT_LEN];
	int fds[2], rc;

	if (fork_child(fds, pid, err, errlen) != IPX_OK)
		return IPX_EIO;
	if (*pid < 0)
		bridge_main(fds[1], near, trunk, segment);
	rc = await_report(fds[0], "WAN bridge", wait, pid, text, err, errlen);
	if (rc == IPX_OK)
		memcpy(far, text + 1, sizeof(*far));
	return rc;
}
