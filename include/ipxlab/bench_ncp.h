/*
 * bench_ncp.h - the file-server benchmarks of 1990 (docs/benchmarks.md,
 * B2 the Network Test Battery, B3 the file copy): the operations a
 * workstation agent repeats as an NCP client (the IPX_BW_NCP workload,
 * work_ncp.c), the fixtures on the server's volume they need, the runs
 * the controller makes of them, and the figures the 1990 note published.
 *
 * The fixtures, under SYS:BATTERY (ipx_bn_fixtures_make):
 *   F00.DAT .. F15.DAT        16 files of 512 bytes (single directory)
 *   D0, D1 \ D0, D1 \ ...     four levels of subdirectories, two at each
 *                             level (30 directories), each with F0.DAT ..
 *                             F3.DAT (512 bytes)
 *   SHARED4K.DAT, SHARED4M.DAT  the 4 KB and 4 MB shared files
 *   PRIV01.DAT ..             128 KB, one per workstation
 *   TMP\                      where create/write/close/delete works, and
 *                             B4's PERFnn.DAT (created by the workstation)
 *   C1205.DAT .. C214705.DAT  the seven sizes of the copy test
 *
 * and beside it, so that B2's directory search sees what it saw before:
 *   IMAGES\IMG000.TIF ..     B8's 200 images (ipx_bn_image_size)
 */
#ifndef IPXLAB_BENCH_NCP_H
#define IPXLAB_BENCH_NCP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ipxlab/bench_harness.h"
#include "ipxlab/bench_work.h"

#ifdef __cplusplus
extern "C" {
#endif

enum ipx_bn_op {
	/* B2, in the order of the 1990 note */
	IPX_BN_OPEN_MULTI,	/* open/close a random file, 4 levels */
	IPX_BN_OPEN_SINGLE,	/* open/close a random file, top directory */
	IPX_BN_SHARED_SMALL,	/* 1-byte random reads, 4 KB shared file */
	IPX_BN_SHARED_LARGE,	/* 1-byte random reads, 4 MB shared file */
	IPX_BN_CREATE,		/* create, one 16 KB write, close, delete */
	IPX_BN_PRIV_RANDOM,	/* 64-byte random reads, own 128 KB file */
	IPX_BN_PRIV_SEQ,	/* 64-byte sequential reads, own file */
	IPX_BN_BLOCK,		/* 16 KB reads, everybody at offset 0 */
	IPX_BN_DIR_SEARCH,	/* *.* search: one request, one entry */
	IPX_BN_RANDOM_SEARCH,	/* one random name, some missing */
	IPX_BN_LOCK,		/* lock and unlock one physical record */
	IPX_BN_BATTERY_OPS,
	/* not B2 operations */
	IPX_BN_PING = IPX_BN_BATTERY_OPS,	/* Novell ping of the server node */
	IPX_BN_COPY,		/* copy C<size>.DAT to the local disk */
	IPX_BN_PERFTEST,	/* B4: a record written over at offset 0 */
	IPX_BN_GET,		/* 'size' bytes of the 4 MB file, next part */
	IPX_BN_P3_READ,		/* B7: a 'size' block at offset 0 of its own
				 * 128 KB private file */
	IPX_BN_P3_WRITE,	/* B7: a 'size' block at offset 0 of its own
				 * file (B4's, created at set-up) */
	IPX_BN_RETRIEVE,	/* B8: open, read whole, close the next image
				 * of its own order ('size' images) */
	IPX_BN_OPS
};

/* "open-multi", ...: the names --only takes; NULL out of range. */
const char *ipx_bn_op_name(enum ipx_bn_op op);
/* The 1990 note's name of the test. */
const char *ipx_bn_op_title(enum ipx_bn_op op);
int ipx_bn_op_parse(const char *text, enum ipx_bn_op *out);
/* Requests one operation makes when it is a single-request one (1-byte
 * reads 1, lock/unlock 2); 0 for the others (no round-trip target). */
unsigned ipx_bn_op_requests(enum ipx_bn_op op);
/* Seconds per test in the 1990 procedure: 20, the searches 10. */
double ipx_bn_op_seconds(enum ipx_bn_op op);
/* The 1990 peak Kbyte/s on the wire with one workstation: local | bridged
 * (the only per-test figures the note gives; its ops/s were a chart). */
void ipx_bn_published_kbs(enum ipx_bn_op op, double *local, double *bridged);

/* Bytes one operation reads or writes (PRIV_* 64, BLOCK and CREATE 16 KB). */
#define IPX_BN_PRIV_RECORD 64
#define IPX_BN_BLOCK_SIZE 16384
#define IPX_BN_CREATE_SIZE 16384
#define IPX_BN_PRIV_SIZE (128 * 1024)
#define IPX_BN_SMALL_SIZE 4096
#define IPX_BN_LARGE_SIZE (4 * 1024 * 1024)
#define IPX_BN_SINGLE_FILES 16
#define IPX_BN_LEVEL_FILES 4
#define IPX_BN_LEVELS 4
#define IPX_BN_MAX_STATIONS IPX_HNET_MAX_AGENTS
/* Random searches look for F0..F5 (F4, F5 never exist: a third miss). */
#define IPX_BN_SEARCH_NAMES 6

/* B3: the seven sizes and the published seconds (three runs and their
 * average, local | bridged). */
#define IPX_BN_COPY_SIZES 7
extern const uint32_t ipx_bn_copy_size[IPX_BN_COPY_SIZES];
struct ipx_bn_copy_pub {
	double local[3], local_avg, bridged[3], bridged_avg;
};
extern const struct ipx_bn_copy_pub ipx_bn_copy_published[IPX_BN_COPY_SIZES];

/*
 * Paths on the server (relative to SYS:), into buf: the file open/close
 * opens (level 0: the top directory), the directory a random search
 * looks in, a workstation's private and scratch files, a copy size's
 * file. 'pick' chooses among the alternatives (any value: taken modulo).
 */
void ipx_bn_path_open(bool multi, uint32_t pick, char *buf, size_t len);
void ipx_bn_path_search(uint32_t pick, char *dir, size_t dlen, char *name,
			size_t nlen);
void ipx_bn_path_private(unsigned station, char *buf, size_t len);
void ipx_bn_path_scratch(unsigned station, char *buf, size_t len);
void ipx_bn_path_copy(uint32_t size, char *buf, size_t len);
/* B4's file, one per workstation (PERFORM gave each a unique name). */
void ipx_bn_path_perf(unsigned station, char *buf, size_t len);
#define IPX_BN_PERF_RECORD 4096
/* B3 on a period (bench_sim.h): the copy program's file, which its
 * start-up loads from the server through the shell (the period's
 * station software 'start-bytes' of it, at most its size). */
#define IPX_BN_PROGRAM_FILE "PUBLIC\\COPY.EXE"
#define IPX_BN_PROGRAM_SIZE 65536u
#define IPX_BN_PERF_MAX_RECORD 65536
/* IPX_BN_GET (bench ncp's large get): the part one operation reads, in
 * buffer-size requests (default and largest). */
/* B7 (perform3): the largest block, at most the private file's */
#define IPX_BN_P3_MAX_BLOCK 65536
#define IPX_BN_GET_PART (256 * 1024)
/* B8 (retrieval): IPX_BN_IMAGES images, IMAGES\IMGnnn.TIF; image i's
 * size in bytes is a log-normal draw (a fixed xorshift sequence, median
 * IPX_BN_IMAGE_MEDIAN, sigma 0.5) clipped to IPX_BN_IMAGE_MIN..MAX: the
 * size of a 1990 scanned page stored compressed (CCITT Group 4) */
#define IPX_BN_IMAGES 200
#define IPX_BN_IMAGE_DIR "IMAGES"
#define IPX_BN_IMAGE_MEDIAN 48000
#define IPX_BN_IMAGE_MIN 16000
#define IPX_BN_IMAGE_MAX 160000
uint32_t ipx_bn_image_size(unsigned i);
/* Workstation 'station' (from 1), its k-th retrieval of 'images': the
 * image index, (k + 7 (station - 1)) mod images: each image once per
 * workstation, the workstations at different images at any time. */
unsigned ipx_bn_image_pick(unsigned station, unsigned k, unsigned images);
void ipx_bn_path_image(unsigned i, char *buf, size_t len);
#define IPX_BN_GET_MAX_PART IPX_BN_LARGE_SIZE
#define IPX_BN_DIR "BATTERY"
#define IPX_BN_SMALL_FILE "BATTERY\\SHARED4K.DAT"
#define IPX_BN_LARGE_FILE "BATTERY\\SHARED4M.DAT"

/* Fill host directory 'root' (the SYS volume) with the fixtures for
 * 'stations' workstations. IPX_OK, or an error with a message in err. */
int ipx_bn_fixtures_make(const char *root, unsigned stations, char *err,
			 size_t errlen);
/* Remove a scratch volume: 'root' and everything below it (symbolic links
 * as links, never followed). */
void ipx_bn_fixtures_remove(const char *root);

/* ---- the controller's runs (battery.c) ---- */

struct ipx_bn_run_opts {
	struct ipx_addr server;	/* the file server (socket 0x451) */
	double seconds;		/* per test; 0: the 1990 times */
	ipx_time timeout;	/* beyond the test's own time; 0: 30 s */
	struct ipx_hctl_span *span;	/* each run's GO..RESULT; NULL: none */
	/* the buffer each workstation asks for (0: 4,096) and no packet
	 * burst (bench_work.h's ncp_buffer, ncp_no_burst) */
	uint16_t ncp_buffer;
	bool ncp_no_burst;
	bool single_frame;	/* the workstations' links: one frame per
				 * system call (bench_work.h) */
};

/*
 * One test: 'op' on agents 0..n-1 of the controller at once (all
 * PREPAREd, then GO to all: the barrier), each 'seconds' (count 0) or
 * 'count' operations; results[i] is agent i's. 'size' is the copy's file
 * size or the ping's data (else 0). IPX_OK or an error naming the agent.
 */
int ipx_bn_run(struct ipx_hctl *c, const struct ipx_bn_run_opts *o,
	       enum ipx_bn_op op, size_t n, double seconds, uint32_t count,
	       size_t size, uint16_t repeat, struct ipx_bw_result *results,
	       char *err, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif
