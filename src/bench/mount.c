/*
 * mount.c - `ipxlab bench mount` (bench_mount.h): a file written and read
 * through `ipxlab mount` (a forked child running ipx_mount_run) beside
 * the same transfer by the NCP client library on this process's node,
 * the two paths in turn within each run.
 */
#include "ipxlab/bench_mount.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ipxlab/bench_fsnet.h"
#include "ipxlab/bench_harness.h"
#include "ipxlab/config.h"
#include "ipxlab/err.h"
#include "ipxlab/loop.h"
#include "ipxlab/mount.h"
#include "ipxlab/ncp_client.h"
#include "ipxlab/node.h"
#include "ipxlab/sap.h"

#define SERVER "BENCHMNT"
#define WAIT (10 * IPX_SEC)
#define MOUNT_WAIT_MS 15000

/* Everything one benchmark has running. */
struct env {
	char dir[256], sys[300], mnt[300], log[300];
	struct ipx_hnet *net;
	struct sockaddr_in hub;
	pid_t srv, mnt_pid;
	bool mounted;
	struct ipx_loop *loop;
	struct ipx_node *node;
	struct ipx_sap *sap;
	struct ncp_client *cl;
	uint8_t *data, *back;
	size_t len;
};

static double now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void loadavg(double out[3])
{
	FILE *f = fopen("/proc/loadavg", "r");

	out[0] = out[1] = out[2] = -1;
	if (f) {
		if (fscanf(f, "%lf %lf %lf", &out[0], &out[1], &out[2]) != 3)
			out[0] = out[1] = out[2] = -1;
		fclose(f);
	}
}

/* ---- the mount, a child of this process ---- */

static int child_open_node(void *ctx, struct ipx_mount_node *out)
{
	const struct sockaddr_in *hub = ctx;
	struct ipx_config cfg;
	char err[256];
	sigset_t set;

	ipx_config_defaults(&cfg);
	if (ipx_hnet_join(hub, &cfg, WAIT, &out->loop, &out->node, err,
			  sizeof(err)) != IPX_OK) {
		fprintf(stderr, "ipxlab mount: %s\n", err);
		return -1;
	}
	/* the loop may take SIGINT/SIGTERM (a signalfd): here libfuse's
	 * handlers take them, to unmount */
	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	out->handle = NULL;
	return 0;
}

static void child_close_node(void *ctx, struct ipx_mount_node *n)
{
	(void)ctx;
	ipx_node_free(n->node);
	ipx_loop_free(n->loop);
}

static void mount_main(struct env *e, unsigned conns) __attribute__((noreturn));
static void mount_main(struct env *e, unsigned conns)
{
	struct ipx_mount_opts mo = { .volume = "SYS", .server = SERVER,
				     .user = "GUEST", .password = "",
				     .conns = conns, .retry_time = 10,
				     .find_timeout = 5 };
	sigset_t none;
	int fd = open(e->log, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	int null = open("/dev/null", O_RDONLY);

	prctl(PR_SET_PDEATHSIG, SIGTERM);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	signal(SIGINT, SIG_IGN);	/* the benchmark unmounts us */
	signal(SIGPIPE, SIG_IGN);
	if (fd >= 0) {
		dup2(fd, STDOUT_FILENO);
		dup2(fd, STDERR_FILENO);
		close(fd);
	}
	if (null >= 0) {
		dup2(null, STDIN_FILENO);
		close(null);
	}
	mo.mountpoint = e->mnt;
	mo.open_node = child_open_node;
	mo.close_node = child_close_node;
	mo.ctx = &e->hub;
	_exit(ipx_mount_run(&mo));
}

/* The last line of the mount's log, for a message. */
static void log_tail(const struct env *e, char *out, size_t cap)
{
	char line[256] = "";
	FILE *f = fopen(e->log, "r");

	snprintf(out, cap, "no message");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f))
		if (line[0] && line[0] != '\n')
			snprintf(out, cap, "%.*s", (int)strcspn(line, "\n"),
				 line);
	fclose(f);
}

static bool is_mounted(const struct env *e)
{
	struct stat a, b;

	return stat(e->mnt, &a) == 0 && stat(e->dir, &b) == 0 &&
	       a.st_dev != b.st_dev;
}

static int mount_start(struct env *e, unsigned conns, char *err,
		       size_t errlen)
{
	char tail[200];
	int st;

	fflush(NULL);
	e->mnt_pid = fork();
	if (e->mnt_pid < 0) {
		snprintf(err, errlen, "fork: %s", strerror(errno));
		return IPX_EIO;
	}
	if (e->mnt_pid == 0)
		mount_main(e, conns);
	for (int ms = 0; ms < MOUNT_WAIT_MS; ms += 20) {
		if (is_mounted(e)) {
			e->mounted = true;
			return IPX_OK;
		}
		if (waitpid(e->mnt_pid, &st, WNOHANG) == e->mnt_pid) {
			e->mnt_pid = 0;
			log_tail(e, tail, sizeof(tail));
			snprintf(err, errlen, "the mount failed: %s", tail);
			return IPX_EIO;
		}
		usleep(20000);
	}
	snprintf(err, errlen, "the mount did not appear within %d s",
		 MOUNT_WAIT_MS / 1000);
	return IPX_ETIMEOUT;
}

/* Wait up to ms for the mount's daemon to exit; true if it did. */
static bool reaped(struct env *e, int ms)
{
	for (int t = 0; e->mnt_pid > 0 && t < ms; t += 20) {
		if (waitpid(e->mnt_pid, NULL, WNOHANG) == e->mnt_pid)
			e->mnt_pid = 0;
		else
			usleep(20000);
	}
	return e->mnt_pid <= 0;
}

/* Unmount as fusermount3 -u does (the daemon then exits 0), else
 * SIGTERM, else SIGKILL and a lazy unmount. */
static void mount_stop(struct env *e)
{
	if (e->mounted && umount2(e->mnt, 0) == 0)
		e->mounted = false;
	if (e->mnt_pid > 0 && !reaped(e, 3000)) {
		kill(e->mnt_pid, SIGTERM);
		if (!reaped(e, 3000)) {
			kill(e->mnt_pid, SIGKILL);
			waitpid(e->mnt_pid, NULL, 0);
			e->mnt_pid = 0;
		}
	}
	if (e->mounted)
		umount2(e->mnt, MNT_DETACH);
	e->mounted = false;
}

/* ---- the network and the client ---- */

static int client_start(struct env *e, struct ipx_bmount_report *rep,
			char *err, size_t errlen)
{
	struct ipx_config cfg;
	struct ipx_addr addr;
	int rc;

	ipx_config_defaults(&cfg);
	rc = ipx_hnet_join(&e->hub, &cfg, WAIT, &e->loop, &e->node, err,
			   errlen);
	if (rc != IPX_OK)
		return rc;
	if ((rc = ipx_sap_new(e->node, NULL, &e->sap)) != IPX_OK ||
	    (rc = ncp_client_new(e->node, NULL, &e->cl)) != IPX_OK) {
		snprintf(err, errlen, "client: %s", ipx_strerror(rc));
		return rc;
	}
	if ((rc = ncp_find_server(e->cl, e->sap, SERVER, 5 * IPX_SEC, &addr,
				  NULL)) ||
	    (rc = ncp_connect(e->cl, &addr)) ||
	    (rc = ncp_login(e->cl, "GUEST", "")) ||
	    (rc = ncp_negotiate(e->cl, 4096))) {
		snprintf(err, errlen, "client: %s", ncp_strerror(rc));
		return IPX_EIO;
	}
	rep->bufsize = ncp_bufsize(e->cl);
	return IPX_OK;
}

static int net_start(struct env *e, const struct ipx_bmount_opts *o,
		     struct ipx_bmount_report *rep, char *err, size_t errlen)
{
	struct ipx_hnet_opts no = { .wait = WAIT };
	const char *tmp = o->tmpdir ? o->tmpdir : getenv("TMPDIR");
	int rc;

	snprintf(e->dir, sizeof(e->dir), "%s/ipxlab-bench-mount.XXXXXX",
		 tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(e->dir)) {
		snprintf(err, errlen, "%s: %s", e->dir, strerror(errno));
		e->dir[0] = 0;
		return IPX_EIO;
	}
	snprintf(e->sys, sizeof(e->sys), "%s/sys", e->dir);
	snprintf(e->mnt, sizeof(e->mnt), "%s/m", e->dir);
	snprintf(e->log, sizeof(e->log), "%s/mount.log", e->dir);
	if (mkdir(e->sys, 0700) || mkdir(e->mnt, 0700)) {
		snprintf(err, errlen, "%s: %s", e->dir, strerror(errno));
		return IPX_EIO;
	}
	rc = ipx_hnet_start(&no, &e->net, err, errlen);
	if (rc != IPX_OK)
		return rc;
	ipx_hnet_hub(e->net, &e->hub);
	rc = ipx_fsrv_fork(&e->hub, SERVER, e->sys, WAIT, &e->srv, err,
			   errlen);
	if (rc == IPX_OK)
		rc = client_start(e, rep, err, errlen);
	if (rc == IPX_OK)
		rc = mount_start(e, o->conns, err, errlen);
	return rc;
}

static void rm_file(const char *dir, const char *name)
{
	char p[400];

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	unlink(p);
}

static void net_stop(struct env *e)
{
	mount_stop(e);
	ncp_client_free(e->cl);
	ipx_sap_free(e->sap);
	if (e->node)
		ipx_node_free(e->node);
	if (e->loop)
		ipx_loop_free(e->loop);
	ipx_fsrv_stop(&e->srv);
	ipx_hnet_stop(e->net, IPX_SEC);
	if (e->dir[0]) {
		rm_file(e->sys, "M.BIN");
		rm_file(e->sys, "N.BIN");
		rm_file(e->dir, "mount.log");
		for (int i = 0; i < 3; i++) {	/* what the server made */
			static const char *const d[] = { "LOGIN", "PUBLIC",
							 "SYSTEM" };
			char p[400];

			snprintf(p, sizeof(p), "%s/%s", e->sys, d[i]);
			rmdir(p);
		}
		rmdir(e->sys);
		rmdir(e->mnt);
		rmdir(e->dir);
	}
	free(e->data);
	free(e->back);
}

/* ---- the transfers: seconds, or < 0 with a message ---- */

static double mount_write(struct env *e, char *err, size_t errlen)
{
	char p[400];
	double t0 = now_s();
	int fd;

	snprintf(p, sizeof(p), "%s/M.BIN", e->mnt);
	fd = open(p, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		goto fail;
	for (size_t at = 0; at < e->len;) {
		size_t n = e->len - at < IPX_BMOUNT_BLOCK ? e->len - at
							   : IPX_BMOUNT_BLOCK;
		ssize_t k = write(fd, e->data + at, n);

		if (k <= 0) {
			close(fd);
			goto fail;
		}
		at += (size_t)k;
	}
	if (close(fd))
		goto fail;
	return now_s() - t0;
fail:
	snprintf(err, errlen, "writing %s: %s", p, strerror(errno));
	return -1;
}

static double mount_read(struct env *e, char *err, size_t errlen)
{
	char p[400];
	double t0 = now_s();
	size_t at = 0;
	int fd;

	snprintf(p, sizeof(p), "%s/M.BIN", e->mnt);
	fd = open(p, O_RDONLY);
	if (fd < 0)
		goto fail;
	for (;;) {
		size_t room = e->len + 1 - at;	/* one more: the end seen */
		ssize_t k = read(fd, e->back + at,
				 room < IPX_BMOUNT_BLOCK ? room
							 : IPX_BMOUNT_BLOCK);

		if (k < 0) {
			close(fd);
			goto fail;
		}
		if (k == 0)
			break;
		at += (size_t)k;
	}
	close(fd);
	if (at != e->len) {
		snprintf(err, errlen, "read %zu bytes of %zu from the mount",
			 at, e->len);
		return -1;
	}
	return now_s() - t0;
fail:
	snprintf(err, errlen, "reading %s: %s", p, strerror(errno));
	return -1;
}

static double ncp_xfer(struct env *e, bool write, char *err, size_t errlen)
{
	struct ncp_fh fh;
	double t0 = now_s();
	size_t at = 0, got = 0;
	int rc = ncp_open(e->cl, "N.BIN", write ? NCP_OPEN_CREATE
						: NCP_OPEN_READ, &fh);

	while (!rc && at < e->len) {
		size_t n = e->len - at < IPX_BMOUNT_BLOCK ? e->len - at
							   : IPX_BMOUNT_BLOCK;

		if (write)
			rc = ncp_write(e->cl, &fh, (uint32_t)at, e->data + at,
				       n);
		else if (!(rc = ncp_read(e->cl, &fh, (uint32_t)at,
					 e->back + at, n, &got)) &&
			 got < n)
			break;
		at += write ? n : got;
	}
	if (!rc)
		rc = ncp_close(e->cl, &fh);
	if (rc) {
		snprintf(err, errlen, "ncp %s of N.BIN: %s",
			 write ? "write" : "read", ncp_strerror(rc));
		return -1;
	}
	if (at != e->len) {
		snprintf(err, errlen, "ncp read %zu bytes of %zu", at, e->len);
		return -1;
	}
	return now_s() - t0;
}

/* The file on the server's disk, as written by the transfer. */
static int check_disk(struct env *e, const char *name, char *err,
		      size_t errlen)
{
	char p[400];
	FILE *f;
	size_t n;

	snprintf(p, sizeof(p), "%s/%s", e->sys, name);
	f = fopen(p, "rb");
	n = f ? fread(e->back, 1, e->len, f) : 0;
	if (f)
		fclose(f);
	if (n != e->len || memcmp(e->back, e->data, e->len)) {
		snprintf(err, errlen, "%s on the server's disk differs from "
				      "what was written", name);
		return IPX_EIO;
	}
	return IPX_OK;
}

/* One transfer x into rep's run k; IPX_OK or an error. */
static int xfer(struct env *e, struct ipx_bmount_report *rep, unsigned k,
		enum ipx_bmount_xfer x, char *err, size_t errlen)
{
	double s;

	switch (x) {
	case IPX_BMOUNT_MOUNT_WRITE: s = mount_write(e, err, errlen); break;
	case IPX_BMOUNT_NCP_WRITE: s = ncp_xfer(e, true, err, errlen); break;
	case IPX_BMOUNT_MOUNT_READ: s = mount_read(e, err, errlen); break;
	default: s = ncp_xfer(e, false, err, errlen); break;
	}
	if (s < 0)
		return IPX_EIO;
	if ((x == IPX_BMOUNT_MOUNT_READ || x == IPX_BMOUNT_NCP_READ) &&
	    memcmp(e->back, e->data, e->len)) {
		snprintf(err, errlen, "the %s read back differs",
			 ipx_bmount_xfer_name(x));
		return IPX_EIO;
	}
	rep->rate[k][x] = (double)e->len / 1048576.0 / (s > 0 ? s : 1e-9);
	return IPX_OK;
}

/* Run k: write by both paths, check, read by both; odd runs start with
 * the client. */
static int one_run(struct env *e, struct ipx_bmount_report *rep, unsigned k,
		   char *err, size_t errlen)
{
	static const enum ipx_bmount_xfer order[2][4] = {
		{ IPX_BMOUNT_MOUNT_WRITE, IPX_BMOUNT_NCP_WRITE,
		  IPX_BMOUNT_MOUNT_READ, IPX_BMOUNT_NCP_READ },
		{ IPX_BMOUNT_NCP_WRITE, IPX_BMOUNT_MOUNT_WRITE,
		  IPX_BMOUNT_NCP_READ, IPX_BMOUNT_MOUNT_READ },
	};
	int rc = IPX_OK;

	rm_file(e->sys, "M.BIN");
	rm_file(e->sys, "N.BIN");
	for (int i = 0; rc == IPX_OK && i < 4; i++) {
		if (i == 2 && ((rc = check_disk(e, "M.BIN", err, errlen)) ||
			       (rc = check_disk(e, "N.BIN", err, errlen))))
			break;
		if (rep->o.stop && *rep->o.stop)
			return IPX_OK;
		rc = xfer(e, rep, k, order[k % 2][i], err, errlen);
	}
	return rc;
}

static int check_opts(const struct ipx_bmount_opts *o, char *err,
		      size_t errlen)
{
	if (o->mb < 1 || o->mb > IPX_BMOUNT_MAX_MB || o->repeat < 1 ||
	    o->repeat > IPX_BMOUNT_MAX_REPEAT || o->conns > 16) {
		snprintf(err, errlen, "mount: 1 to %d MB, 1 to %d runs, 0 to "
				      "16 connections",
			 IPX_BMOUNT_MAX_MB, IPX_BMOUNT_MAX_REPEAT);
		return IPX_EINVAL;
	}
	if (!ipx_mount_available()) {
		snprintf(err, errlen, "this ipxlab was built without libfuse3");
		return IPX_EPERM;
	}
	if (geteuid() != 0 || access("/dev/fuse", R_OK | W_OK)) {
		snprintf(err, errlen, "needs root and /dev/fuse");
		return IPX_EPERM;
	}
	return IPX_OK;
}

int ipx_bmount_run(const struct ipx_bmount_opts *o,
		   ipx_bench_progress_fn progress, void *ctx,
		   struct ipx_bmount_report *rep, char *err, size_t errlen)
{
	struct env e;
	char line[120];
	uint64_t x = 0x9E3779B97F4A7C15ull;
	int rc;

	memset(rep, 0, sizeof(*rep));
	memset(&e, 0, sizeof(e));
	rep->o = *o;
	if ((rc = check_opts(o, err, errlen)) != IPX_OK)
		return rc;
	e.len = (size_t)o->mb * 1048576;
	e.data = malloc(e.len);
	e.back = malloc(e.len + 1);
	if (!e.data || !e.back) {
		free(e.data);
		free(e.back);
		snprintf(err, errlen, "out of memory");
		return IPX_ENOMEM;
	}
	for (size_t i = 0; i < e.len; i++) {	/* xorshift: no runs of zeros */
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		e.data[i] = (uint8_t)(x >> 24);
	}
	if (progress)
		progress(ctx, "mount: starting the hub, the server, the mount");
	rc = net_start(&e, o, rep, err, errlen);
	loadavg(rep->load_before);
	for (unsigned k = 0; rc == IPX_OK && k < o->repeat; k++) {
		if (o->stop && *o->stop)
			break;
		if (progress) {
			snprintf(line, sizeof(line), "mount: %u MB, run %u/%u",
				 o->mb, k + 1, o->repeat);
			progress(ctx, line);
		}
		rc = one_run(&e, rep, k, err, errlen);
		if (rc == IPX_OK && !(o->stop && *o->stop))
			rep->runs = k + 1;
	}
	loadavg(rep->load_after);
	if (o->stop && *o->stop) {
		rep->interrupted = true;
		rc = IPX_OK;
	}
	if (progress)
		progress(ctx, NULL);
	net_stop(&e);
	return rc;
}

/* ---- the figures and the writers ---- */

const char *ipx_bmount_xfer_name(enum ipx_bmount_xfer x)
{
	static const char *const n[IPX_BMOUNT_XFERS] = {
		"mount_write", "ncp_write", "mount_read", "ncp_read"
	};

	return (unsigned)x < IPX_BMOUNT_XFERS ? n[x] : "?";
}

double ipx_bmount_median(const struct ipx_bmount_report *rep,
			 enum ipx_bmount_xfer x, struct ipx_stat_summary *s)
{
	double v[IPX_BMOUNT_MAX_REPEAT];

	for (unsigned k = 0; k < rep->runs; k++)
		v[k] = rep->rate[k][x];
	if (s)
		ipx_stat_summarize(v, rep->runs, s);
	return ipx_stat_median(v, rep->runs);
}

double ipx_bmount_ratio(const struct ipx_bmount_report *rep, bool write)
{
	double m = ipx_bmount_median(rep, write ? IPX_BMOUNT_MOUNT_WRITE
						: IPX_BMOUNT_MOUNT_READ, NULL);
	double n = ipx_bmount_median(rep, write ? IPX_BMOUNT_NCP_WRITE
						: IPX_BMOUNT_NCP_READ, NULL);

	return n > 0 ? m / n : 0;
}

struct run_row {
	unsigned run;
	double mw, nw, mr, nr;
};

static const struct ipx_rfield run_fields[] = {
	IPX_RF(struct run_row, run, "run", "", NULL, IPX_RF_UINT, IPX_RF_BOTH),
	IPX_RF(struct run_row, mw, "mount_write", "MB/s", "%.2f",
	       IPX_RF_DOUBLE, IPX_RF_BOTH),
	IPX_RF(struct run_row, nw, "ncp_write", "MB/s", "%.2f", IPX_RF_DOUBLE,
	       IPX_RF_BOTH),
	IPX_RF(struct run_row, mr, "mount_read", "MB/s", "%.2f",
	       IPX_RF_DOUBLE, IPX_RF_BOTH),
	IPX_RF(struct run_row, nr, "ncp_read", "MB/s", "%.2f", IPX_RF_DOUBLE,
	       IPX_RF_BOTH),
};
static const struct ipx_rtable run_table = IPX_RTABLE("mount", run_fields);

static struct run_row row_of(const struct ipx_bmount_report *rep, unsigned k)
{
	const double *r = rep->rate[k];
	struct run_row row = { k + 1, r[0], r[1], r[2], r[3] };

	return row;
}

void ipx_bmount_write_csv(FILE *out, const struct ipx_bmount_report *rep)
{
	ipx_res_csv_header(out, &run_table);
	for (unsigned k = 0; k < rep->runs; k++) {
		struct run_row row = row_of(rep, k);

		ipx_res_csv_row(out, &run_table, &row);
	}
}

static void json_path(struct ipx_jw *w, const struct ipx_bmount_report *rep,
		      bool write)
{
	enum ipx_bmount_xfer m = write ? IPX_BMOUNT_MOUNT_WRITE
				       : IPX_BMOUNT_MOUNT_READ;
	struct ipx_stat_summary a, b;
	double ratio = ipx_bmount_ratio(rep, write);

	ipx_bmount_median(rep, m, &a);
	ipx_bmount_median(rep, (enum ipx_bmount_xfer)(m + 1), &b);
	ipx_jw_obj(w, write ? "write" : "read");
	ipx_jw_summary(w, "mount_MB_per_s", "%.2f", &a);
	ipx_jw_summary(w, "ncp_MB_per_s", "%.2f", &b);
	ipx_jw_dbl(w, "ratio", "%.3f", ratio);
	ipx_jw_dbl(w, "target", "%.2f", IPX_BMOUNT_TARGET);
	ipx_jw_bool(w, "pass", ratio >= IPX_BMOUNT_TARGET);
	ipx_jw_end(w);
}

void ipx_bmount_write_json(FILE *out, const struct ipx_bmount_report *rep,
			   ipx_bmount_cond_fn cond, const void *ctx)
{
	struct ipx_jw w;

	ipx_jw_init(&w, out);
	ipx_jw_obj(&w, NULL);
	ipx_jw_str(&w, "benchmark", "mount");
	ipx_jw_bool(&w, "complete", !rep->interrupted &&
				    rep->runs == rep->o.repeat);
	ipx_jw_obj(&w, "conditions");
	if (cond)
		cond(&w, ctx);
	ipx_jw_u64(&w, "MB", rep->o.mb);
	ipx_jw_u64(&w, "block_bytes", IPX_BMOUNT_BLOCK);
	ipx_jw_u64(&w, "repeat", rep->o.repeat);
	ipx_jw_u64(&w, "conns", rep->o.conns ? rep->o.conns : 4);
	ipx_jw_u64(&w, "ncp_bufsize", rep->bufsize);
	ipx_jw_arr(&w, "load_before");
	for (int i = 0; i < 3; i++)
		ipx_jw_dbl(&w, NULL, "%.2f", rep->load_before[i]);
	ipx_jw_end(&w);
	ipx_jw_arr(&w, "load_after");
	for (int i = 0; i < 3; i++)
		ipx_jw_dbl(&w, NULL, "%.2f", rep->load_after[i]);
	ipx_jw_end(&w);
	ipx_jw_end(&w);
	json_path(&w, rep, true);
	json_path(&w, rep, false);
	ipx_jw_arr(&w, "runs");
	for (unsigned k = 0; k < rep->runs; k++) {
		struct run_row row = row_of(rep, k);

		ipx_res_json_row(&w, NULL, &run_table, &row);
	}
	ipx_jw_finish(&w);
}
