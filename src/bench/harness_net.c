/*
 * harness_net.c - the network a benchmark controller builds for itself
 * (ipxlab/bench_harness.h): a hub on a free loopback port and the agents,
 * each a child process with its own loop and IPX node. Children die with
 * the parent (PR_SET_PDEATHSIG) and ignore the terminal's Ctrl-C (the
 * controller stops them), and every one is reaped by ipx_hnet_stop.
 * Also the "join a hub as a fresh node" step everyone uses. Or, for
 * bench eth, no hub: each agent enters its network namespace and opens
 * its node on an Ethernet interface there (ipx_hnet_eth).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "harness_int.h"
#include "ipxlab/err.h"
#include "ipxlab/hub.h"
#include "ipxlab/hub_capture.h"
#include "ipxlab/link_eth.h"
#include "ipxlab/link_udp.h"
#include "ipxlab/log.h"

#define START_MS 10000		/* a child's report that it is up */
#define REPORT_LEN 256

struct hchild {
	pid_t pid;		/* 0: none or reaped */
	char what[64];		/* "agent 'receiver'", "the hub" */
	int status;
	bool reaped;
};

struct ipx_hnet {
	struct sockaddr_in hub;
	struct hchild hubproc;
	struct hchild agents[IPX_HNET_MAX_AGENTS];
	size_t n;
	bool pcap;		/* the hub records: stop it with SIGTERM */
};

const char *ipx_hnet_exit_text(int status, char *buf, size_t len)
{
	if (WIFEXITED(status))
		snprintf(buf, len, "exited with status %d",
			 WEXITSTATUS(status));
	else if (WIFSIGNALED(status))
		snprintf(buf, len, "killed by signal %d (%s)",
			 WTERMSIG(status), strsignal(WTERMSIG(status)));
	else
		snprintf(buf, len, "stopped");
	return buf;
}

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

/* ---- joining a hub ---- */

static bool settled(void *ctx)
{
	struct ipx_link *link = ctx;

	return link->up || ipx_udp_link_error(link) != IPX_OK;
}

/* A join that failed: nothing of it is left. IPX_EIO. */
static int join_failed(struct ipx_loop **loop, struct ipx_node **node)
{
	ipx_node_free(*node);
	ipx_loop_free(*loop);
	*node = NULL;
	*loop = NULL;
	return IPX_EIO;
}

int ipx_hnet_join_on(struct ipx_loop *loop, const struct sockaddr_in *server,
		     const struct ipx_config *cfg, ipx_time wait,
		     struct ipx_node **node, char *err, size_t errlen)
{
	struct ipx_udp_options uo = { 0 };
	struct ipx_link *link = NULL;
	char host[INET_ADDRSTRLEN];
	int rc;

	*node = ipx_node_new(loop, cfg);
	if (!*node) {
		hset_err(err, errlen, "out of memory");
		return IPX_ENOMEM;
	}
	uo.register_timeout = wait;
	uo.retry_first = 50 * IPX_MSEC;
	uo.retry_max = 500 * IPX_MSEC;
	rc = ipx_udp_link_open(loop, server, &uo, &link);
	if (rc == IPX_OK)
		rc = ipx_node_add_link(*node, link);
	else
		link = NULL;
	if (rc != IPX_OK) {
		ipx_link_close(link);
		hset_err(err, errlen, "cannot open the tunnel link: %s",
			 ipx_strerror(rc));
		goto fail;
	}
	rc = ipx_loop_run_until(loop, settled, link, wait + IPX_SEC);
	if (!link->up) {
		inet_ntop(AF_INET, &server->sin_addr, host, sizeof(host));
		hset_err(err, errlen, "could not register with the hub at "
				      "%s:%u (%s)",
			 host, ntohs(server->sin_port),
			 ipx_strerror(ipx_udp_link_error(link) != IPX_OK
					      ? ipx_udp_link_error(link)
				      : rc != IPX_OK ? rc
						     : IPX_ETIMEOUT));
		goto fail;
	}
	return IPX_OK;
fail:
	ipx_node_free(*node);
	*node = NULL;
	return IPX_EIO;
}

int ipx_hnet_enter_netns(const char *name, char *err, size_t errlen)
{
	char path[300];
	int fd;

	if (!name || !*name)
		return IPX_OK;
	snprintf(path, sizeof(path), "%s%s",
		 strchr(name, '/') ? "" : "/var/run/netns/", name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || setns(fd, CLONE_NEWNET) < 0) {
		hset_err(err, errlen, "cannot enter network namespace %s: %s",
			 path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return IPX_EIO;
	}
	close(fd);
	return IPX_OK;
}

int ipx_hnet_join_eth(const struct ipx_hnet_eth *e,
		      const struct ipx_config *cfg, struct ipx_loop **loop,
		      struct ipx_node **node, char *err, size_t errlen)
{
	struct ipx_eth_options eo = { .frame = e->frame };
	struct ipx_link *link = NULL;
	int rc;

	*node = NULL;
	*loop = ipx_loop_new(NULL);
	if (*loop)
		*node = ipx_node_new(*loop, cfg);
	if (!*node) {
		hset_err(err, errlen, "out of memory");
		goto fail;
	}
	if (ipx_eth_link_open(*loop, e->ifname, &eo, &link, err, errlen) !=
	    IPX_OK)
		goto fail;
	rc = ipx_node_add_link(*node, link);
	if (rc != IPX_OK) {
		ipx_link_close(link);
		hset_err(err, errlen, "%s: %s", e->ifname, ipx_strerror(rc));
		goto fail;
	}
	return IPX_OK;
fail:
	return join_failed(loop, node);
}

int ipx_hnet_join(const struct sockaddr_in *server,
		  const struct ipx_config *cfg, ipx_time wait,
		  struct ipx_loop **loop, struct ipx_node **node, char *err,
		  size_t errlen)
{
	int rc;

	*node = NULL;
	*loop = ipx_loop_new(NULL);
	if (!*loop) {
		hset_err(err, errlen, "out of memory");
		return IPX_ENOMEM;
	}
	rc = ipx_hnet_join_on(*loop, server, cfg, wait, node, err, errlen);
	if (rc != IPX_OK) {
		ipx_loop_free(*loop);
		*loop = NULL;
	}
	return rc;
}

/* ---- children ---- */

/* What a child does first. */
static void child_prologue(pid_t parent)
{
	sigset_t none;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(1);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	signal(SIGINT, SIG_IGN);	/* the controller stops us */
	signal(SIGPIPE, SIG_IGN);
	signal(SIGTERM, SIG_DFL);
}

/* Tell the parent: "" for up, else what went wrong. */
static void report(int fd, const char *text)
{
	char buf[REPORT_LEN] = { 0 };

	snprintf(buf, sizeof(buf), "%s", text);
	if (write(fd, buf, sizeof(buf)) < 0)
		_exit(1);
	close(fd);
}

static void on_term(struct ipx_loop *loop, int signo, void *ctx)
{
	(void)signo;
	(void)ctx;
	ipx_loop_stop(loop);
}

/* The hub child: serves until SIGTERM (then closes its capture, so the
 * pcap file is whole) or SIGKILL. */
static void hub_main(int fd, const struct ipx_hnet_opts *o)
	__attribute__((noreturn));
static void hub_main(int fd, const struct ipx_hnet_opts *o)
{
	static const int sigs[] = { SIGTERM };
	struct ipx_hub_options ho = { 0 };
	struct ipx_loop *loop = ipx_loop_new(NULL);
	struct ipx_capture *cap = NULL;
	struct ipx_hub *hub;
	struct sockaddr_in where;
	char err[REPORT_LEN - 8];

	if (!loop) {
		report(fd, "out of memory");
		_exit(1);
	}
	if (o->pcap) {
		struct ipx_capture_options co = {
			.pcap_path = o->pcap,
			.snaplen = o->pcap_snaplen,
			.loop_time = o->pcap_received,
		};

		char why[REPORT_LEN - 16];

		if (ipx_capture_open(loop, &co, &cap, why, sizeof(why)) !=
		    IPX_OK) {
			snprintf(err, sizeof(err), "--pcap %s", why);
			report(fd, err);
			_exit(1);
		}
		if (o->pcap_received)
			ipx_hub_capture_received(&ho, cap);
		else
			ipx_hub_capture(&ho, cap);
	}
	ho.bind.sin_family = AF_INET;
	ho.bind.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	ho.profile = o->profile;
	if (ipx_hub_open(loop, &ho, &hub, err, sizeof(err)) != IPX_OK) {
		report(fd, err);
		_exit(1);
	}
	ipx_loop_watch_signals(loop, sigs, 1, on_term, NULL);
	ipx_hub_local(hub, &where);
	snprintf(err, sizeof(err), "port %u", ntohs(where.sin_port));
	report(fd, err);
	ipx_loop_run(loop);
	ipx_hub_close(hub);
	_exit(cap && ipx_capture_close(cap) != IPX_OK ? 1 : 0);
}

static void agent_main(int fd, const struct ipx_hnet_opts *o,
		       const struct sockaddr_in *hub, const char *name,
		       const struct ipx_hnet_eth *eth) __attribute__((noreturn));
static void agent_main(int fd, const struct ipx_hnet_opts *o,
		       const struct sockaddr_in *hub, const char *name,
		       const struct ipx_hnet_eth *eth)
{
	struct ipx_agent_opts ao = { .name = name, .once = true,
				     .fault = o->fault };
	struct ipx_loop *loop;
	struct ipx_node *node;
	struct ipx_agent *a;
	char err[REPORT_LEN];

	if ((eth ? ipx_hnet_enter_netns(eth->netns, err, sizeof(err)) !=
			   IPX_OK ||
			   ipx_hnet_join_eth(eth, o->cfg, &loop, &node, err,
					     sizeof(err)) != IPX_OK
		 : ipx_hnet_join(hub, o->cfg, o->wait, &loop, &node, err,
				 sizeof(err)) != IPX_OK) ||
	    ipx_agent_new(node, &ao, &a, err, sizeof(err)) != IPX_OK) {
		report(fd, err);
		_exit(1);
	}
	report(fd, "");
	while (!ipx_agent_done(a) && ipx_loop_run_once(loop, IPX_SEC) >= 0)
		;
	ipx_agent_free(a);
	/* Let the disconnect answer leave. */
	ipx_loop_run_for(loop, 20 * IPX_MSEC);
	ipx_node_free(node);
	ipx_loop_free(loop);
	_exit(0);
}

/* Wait up to 'ms' for the child's report. */
static int read_report(struct hchild *ch, int fd, char *text, char *err,
		       size_t errlen)
{
	ssize_t n = -1;
	char why[80];
	int w = ipx_bench_wait_readable(fd, START_MS);

	if (w > 0)
		n = read(fd, text, REPORT_LEN);
	close(fd);
	if (w < 0) {	/* Ctrl-C while it starts; the caller stops it */
		hset_err(err, errlen, "%s: interrupted while starting",
			 ch->what);
		return IPX_ECLOSED;
	}
	if (n == REPORT_LEN) {
		text[REPORT_LEN - 1] = '\0';
		if (!text[0] || !strncmp(text, "port ", 5))
			return IPX_OK;
		hset_err(err, errlen, "%s: %s", ch->what, text);
		return IPX_EIO;
	}
	if (n == 0 && waitpid(ch->pid, &ch->status, 0) == ch->pid) {
		ch->reaped = true;
		hset_err(err, errlen, "%s (pid %d) %s while starting", ch->what,
			 (int)ch->pid,
			 ipx_hnet_exit_text(ch->status, why, sizeof(why)));
		return IPX_EIO;
	}
	hset_err(err, errlen, "%s (pid %d) did not start within %d s",
		 ch->what, (int)ch->pid, START_MS / 1000);
	return IPX_ETIMEOUT;
}

static int spawn(struct ipx_hnet *net, struct hchild *ch,
		 const struct ipx_hnet_opts *o, const char *name,
		 const struct ipx_hnet_eth *eth, char *text, char *err,
		 size_t errlen)
{
	pid_t parent = getpid();
	int fds[2];

	if (pipe2(fds, O_CLOEXEC) < 0) {
		hset_err(err, errlen, "pipe: %s", strerror(errno));
		return IPX_EIO;
	}
	fflush(NULL);
	ch->pid = fork();
	if (ch->pid < 0) {
		ch->pid = 0;
		close(fds[0]);
		close(fds[1]);
		hset_err(err, errlen, "fork: %s", strerror(errno));
		return IPX_EIO;
	}
	if (ch->pid == 0) {
		close(fds[0]);
		child_prologue(parent);
		if (name)
			agent_main(fds[1], o, &net->hub, name, eth);
		hub_main(fds[1], o);
	}
	close(fds[1]);
	return read_report(ch, fds[0], text, err, errlen);
}

int ipx_hnet_start(const struct ipx_hnet_opts *o, struct ipx_hnet **out,
		   char *err, size_t errlen)
{
	struct ipx_hnet *net = calloc(1, sizeof(*net));
	char text[REPORT_LEN];
	int rc = IPX_OK;

	if (!net) {
		hset_err(err, errlen, "out of memory");
		return IPX_ENOMEM;
	}
	if (o->nagents > IPX_HNET_MAX_AGENTS) {
		free(net);
		hset_err(err, errlen, "at most %d agents", IPX_HNET_MAX_AGENTS);
		return IPX_EINVAL;
	}
	if (o->eth && o->hub) {
		hset_err(err, errlen, "agents on Ethernet have no hub");
		rc = IPX_EINVAL;
	} else if (o->eth) {
		/* no hub: the agents' segment is their interfaces' */
	} else if (o->hub) {
		rc = ipx_udp_resolve(o->hub, IPX_UDP_DEFAULT_PORT, &net->hub,
				     err, errlen);
	} else {
		net->pcap = o->pcap != NULL;
		snprintf(net->hubproc.what, sizeof(net->hubproc.what),
			 "the hub");
		rc = spawn(net, &net->hubproc, o, NULL, NULL, text, err,
			   errlen);
		if (rc == IPX_OK) {
			net->hub.sin_family = AF_INET;
			net->hub.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
			net->hub.sin_port =
				htons((uint16_t)strtoul(text + 5, NULL, 10));
		}
	}
	for (size_t i = 0; rc == IPX_OK && i < o->nagents; i++) {
		struct hchild *ch = &net->agents[i];

		snprintf(ch->what, sizeof(ch->what), "agent '%s'",
			 o->agents[i]);
		net->n = i + 1;
		rc = spawn(net, ch, o, o->agents[i], o->eth ? &o->eth[i] : NULL,
			   text, err, errlen);
	}
	if (rc != IPX_OK) {
		ipx_hnet_stop(net, 0);
		return rc;
	}
	*out = net;
	return IPX_OK;
}

void ipx_hnet_hub(const struct ipx_hnet *n, struct sockaddr_in *out)
{
	*out = n->hub;
}

pid_t ipx_hnet_hub_pid(const struct ipx_hnet *n)
{
	return n && n->hubproc.pid && !n->hubproc.reaped ? n->hubproc.pid : 0;
}

int ipx_hnet_pin_hub(struct ipx_hnet *n, int cpu, char *err, size_t errlen)
{
	cpu_set_t set;

	if (!n->hubproc.pid || n->hubproc.reaped)
		return IPX_ENOTFOUND;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(n->hubproc.pid, sizeof(set), &set) < 0) {
		hset_err(err, errlen, "cannot pin the hub (pid %d) to CPU %d: %s",
			 (int)n->hubproc.pid, cpu, strerror(errno));
		return IPX_EIO;
	}
	return IPX_OK;
}

/* Reaped now? Records the status. */
static bool gone(struct hchild *ch)
{
	if (!ch->pid || ch->reaped)
		return ch->pid != 0;
	if (waitpid(ch->pid, &ch->status, WNOHANG) == ch->pid)
		ch->reaped = true;
	return ch->reaped;
}

int ipx_hnet_watch(void *ctx, char *err, size_t errlen)
{
	struct ipx_hnet *net = ctx;
	char why[80];

	for (size_t i = 0; i < net->n + 1; i++) {
		struct hchild *ch = i < net->n ? &net->agents[i]
					       : &net->hubproc;

		if (gone(ch)) {
			hset_err(err, errlen, "%s (pid %d) died: %s", ch->what,
				 (int)ch->pid,
				 ipx_hnet_exit_text(ch->status, why,
						    sizeof(why)));
			return -1;
		}
	}
	return 0;
}

/* Kill one child (after 'grace_ms' to exit by itself) and reap it. */
static void finish(struct hchild *ch, uint64_t deadline)
{
	if (!ch->pid || ch->reaped)
		return;
	while (!gone(ch) && now_ms() < deadline)
		usleep(2000);
	if (ch->reaped)
		return;
	kill(ch->pid, SIGKILL);
	while (waitpid(ch->pid, &ch->status, 0) < 0 && errno == EINTR)
		;
	ch->reaped = true;
}

void ipx_hnet_stop(struct ipx_hnet *n, ipx_time grace)
{
	uint64_t deadline;

	if (!n)
		return;
	deadline = now_ms() + (uint64_t)(grace / IPX_MSEC);
	for (size_t i = 0; i < n->n; i++)
		finish(&n->agents[i], deadline);
	if (n->pcap && n->hubproc.pid && !n->hubproc.reaped) {
		/* let it close its capture */
		kill(n->hubproc.pid, SIGTERM);
		finish(&n->hubproc, now_ms() + 2000);
	}
	finish(&n->hubproc, 0);
	free(n);
}
