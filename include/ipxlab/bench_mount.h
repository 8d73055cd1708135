/*
 * bench_mount.h - `ipxlab bench mount` (docs/mount.md): sequential write
 * and read of one file through `ipxlab mount` beside the same transfer by
 * the NCP client library (what `ipxlab ncp put` and `get` do), in one
 * run. A hub, ipxlab's file server and the mount are children of this
 * process; the client is this process's own node. Each run makes the four
 * transfers, the two paths in turn (which goes first alternates), so the
 * machine's load falls on both alike; the medians over the runs and their
 * ratio mount/client are the result (target: IPX_BMOUNT_TARGET).
 */
#ifndef IPXLAB_BENCH_MOUNT_H
#define IPXLAB_BENCH_MOUNT_H

#include <signal.h>
#include <stdbool.h>
#include <stdio.h>

#include "ipxlab/bench_result.h"
#include "ipxlab/bench_stat.h"

#ifdef __cplusplus
extern "C" {
#endif

#define IPX_BMOUNT_MAX_REPEAT 50
#define IPX_BMOUNT_MAX_MB 1024
#define IPX_BMOUNT_TARGET 0.80	/* the mount's share of the client's rate */
#define IPX_BMOUNT_BLOCK (1024 * 1024)	/* bytes per write and read call */

struct ipx_bmount_opts {
	unsigned mb;		/* the file, MB (1,048,576 bytes) */
	unsigned repeat;	/* runs */
	unsigned conns;		/* the mount's pool; 0 = 4 */
	const char *tmpdir;	/* NULL: $TMPDIR or /tmp */
	/* set (by a signal handler) to stop after the transfer under way */
	const volatile sig_atomic_t *stop;
};

/* The four transfers. */
enum ipx_bmount_xfer {
	IPX_BMOUNT_MOUNT_WRITE,
	IPX_BMOUNT_NCP_WRITE,
	IPX_BMOUNT_MOUNT_READ,
	IPX_BMOUNT_NCP_READ,
	IPX_BMOUNT_XFERS
};

struct ipx_bmount_report {
	struct ipx_bmount_opts o;
	unsigned runs;		/* runs finished */
	double rate[IPX_BMOUNT_MAX_REPEAT][IPX_BMOUNT_XFERS];	/* MB/s */
	double load_before[3], load_after[3];	/* /proc/loadavg */
	unsigned bufsize;	/* the negotiated NCP buffer */
	bool interrupted;
};

/*
 * Start the network and the mount, make o->repeat runs into rep, stop
 * everything. IPX_OK; or an error with a message (rep keeps the runs
 * that finished); an interrupt (o->stop) is IPX_OK with rep->interrupted.
 * Needs root (or fusermount3) and /dev/fuse: without them IPX_EPERM.
 */
int ipx_bmount_run(const struct ipx_bmount_opts *o,
		   ipx_bench_progress_fn progress, void *ctx,
		   struct ipx_bmount_report *rep, char *err, size_t errlen);
/* The transfer's median over the runs (and its spread in s, if not
 * NULL); mount/client ratio of write (false: read). */
double ipx_bmount_median(const struct ipx_bmount_report *rep,
			 enum ipx_bmount_xfer x, struct ipx_stat_summary *s);
double ipx_bmount_ratio(const struct ipx_bmount_report *rep, bool write);
const char *ipx_bmount_xfer_name(enum ipx_bmount_xfer x);

typedef void (*ipx_bmount_cond_fn)(struct ipx_jw *w, const void *ctx);
void ipx_bmount_write_csv(FILE *out, const struct ipx_bmount_report *rep);
void ipx_bmount_write_json(FILE *out, const struct ipx_bmount_report *rep,
			   ipx_bmount_cond_fn cond, const void *ctx);

#ifdef __cplusplus
}
#endif

#endif
