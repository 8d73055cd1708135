/*
 * ncp_ops.c - the file-server benchmarks' operations by name, the paths
 * of their fixtures on the server, and the figures the 1990 note
 * published for them (bench_ncp.h).
 */
#include <stdio.h>
#include <string.h>

#include "ipxlab/bench_ncp.h"
#include "ipxlab/err.h"

struct op_info {
	const char *name, *title;
	unsigned requests;
	double seconds;
	double kbs_local, kbs_bridged;	/* 1990, one workstation */
};

static const struct op_info ops[IPX_BN_OPS] = {
	[IPX_BN_OPEN_MULTI] = { "open-multi",
				"open/close file, multiple directories", 0,
				20, 31, 9 },
	[IPX_BN_OPEN_SINGLE] = { "open-single",
				 "open/close file, single directory", 0, 20,
				 42, 9 },
	[IPX_BN_SHARED_SMALL] = { "shared-small",
				  "small shared file random read", 1, 20, 55,
				  8 },
	[IPX_BN_SHARED_LARGE] = { "shared-large",
				  "large shared file random read", 1, 20, 7,
				  4 },
	[IPX_BN_CREATE] = { "create", "create/write/close/delete", 0, 20, 79,
			    35 },
	[IPX_BN_PRIV_RANDOM] = { "private-random",
				 "private file 128 KB random read", 0, 20,
				 128, 35 },
	[IPX_BN_PRIV_SEQ] = { "private-seq",
			      "private file 128 KB sequential read", 0, 20,
			      16, 9 },
	[IPX_BN_BLOCK] = { "block", "large block file transfer", 0, 20, 192,
			   40 },
	[IPX_BN_DIR_SEARCH] = { "dir-search", "directory search (*.*)", 0,
				10, 50, 13 },
	[IPX_BN_RANDOM_SEARCH] = { "random-search", "random directory search",
				   0, 10, 45, 12 },
	[IPX_BN_LOCK] = { "lock", "record lock/unlock", 2, 20, 55, 17 },
	[IPX_BN_PING] = { "ping", "IPX round trip (ping of the server)", 0,
			  5, 0, 0 },
	[IPX_BN_COPY] = { "copy", "file copy to the local disk", 0, 0, 0, 0 },
	[IPX_BN_PERFTEST] = { "perftest", "records written overlaid", 0, 0, 0,
			      0 },
	[IPX_BN_GET] = { "get", "large get (parts of the 4 MB file)", 0, 0, 0,
			 0 },
	[IPX_BN_P3_READ] = { "perform3-read", "blocks read from its own file",
			     0, 0, 0, 0 },
	[IPX_BN_P3_WRITE] = { "perform3-write",
			      "blocks written to its own file", 0, 0, 0, 0 },
	[IPX_BN_RETRIEVE] = { "retrieve", "image retrieval (open, read, "
			      "close)", 0, 0, 0, 0 },
};

const char *ipx_bn_op_name(enum ipx_bn_op op)
{
	return (unsigned)op < IPX_BN_OPS ? ops[op].name : NULL;
}

const char *ipx_bn_op_title(enum ipx_bn_op op)
{
	return (unsigned)op < IPX_BN_OPS ? ops[op].title : NULL;
}

int ipx_bn_op_parse(const char *text, enum ipx_bn_op *out)
{
	for (int i = 0; i < IPX_BN_OPS; i++) {
		if (text && !strcmp(text, ops[i].name)) {
			*out = (enum ipx_bn_op)i;
			return IPX_OK;
		}
	}
	return IPX_EINVAL;
}

unsigned ipx_bn_op_requests(enum ipx_bn_op op)
{
	return (unsigned)op < IPX_BN_OPS ? ops[op].requests : 0;
}

double ipx_bn_op_seconds(enum ipx_bn_op op)
{
	return (unsigned)op < IPX_BN_OPS ? ops[op].seconds : 0;
}

void ipx_bn_published_kbs(enum ipx_bn_op op, double *local, double *bridged)
{
	*local = (unsigned)op < IPX_BN_OPS ? ops[op].kbs_local : 0;
	*bridged = (unsigned)op < IPX_BN_OPS ? ops[op].kbs_bridged : 0;
}

const uint32_t ipx_bn_copy_size[IPX_BN_COPY_SIZES] = {
	1205, 5079, 10752, 25184, 50176, 108048, 214705,
};

const struct ipx_bn_copy_pub ipx_bn_copy_published[IPX_BN_COPY_SIZES] = {
	{ { 0.60, 0.78, 0.78 }, 0.72, { 2.20, 2.00, 1.76 }, 1.99 },
	{ { 0.84, 0.92, 1.02 }, 0.93, { 2.08, 1.88, 2.10 }, 2.02 },
	{ { 1.08, 0.91, 0.98 }, 0.99, { 2.31, 2.36, 2.22 }, 2.30 },
	{ { 1.49, 1.33, 1.32 }, 1.38, { 2.87, 2.89, 2.82 }, 2.86 },
	{ { 1.87, 1.77, 1.69 }, 1.78, { 3.26, 2.80, 2.95 }, 3.00 },
	{ { 2.34, 2.37, 2.26 }, 2.32, { 4.57, 5.11, 5.70 }, 5.13 },
	{ { 5.07, 3.64, 3.54 }, 4.08, { 10.71, 9.81, 9.59 }, 10.04 },
};

/* A directory 1..4 levels deep: level from pick, then a branch (D0 or
 * D1) per level from the following bits. Returns the bits used up. */
static uint32_t level_dir(uint32_t pick, char *buf, size_t len)
{
	unsigned levels = 1 + pick % IPX_BN_LEVELS;
	size_t o;

	pick /= IPX_BN_LEVELS;
	o = (size_t)snprintf(buf, len, "%s", IPX_BN_DIR);
	for (unsigned i = 0; i < levels && o < len; i++, pick /= 2)
		o += (size_t)snprintf(buf + o, len - o, "\\D%u", pick % 2);
	return pick;
}

void ipx_bn_path_open(bool multi, uint32_t pick, char *buf, size_t len)
{
	char dir[64];

	if (!multi) {
		snprintf(buf, len, "%s\\F%02u.DAT", IPX_BN_DIR,
			 pick % IPX_BN_SINGLE_FILES);
		return;
	}
	pick = level_dir(pick, dir, sizeof(dir));
	snprintf(buf, len, "%s\\F%u.DAT", dir, pick % IPX_BN_LEVEL_FILES);
}

void ipx_bn_path_search(uint32_t pick, char *dir, size_t dlen, char *name,
			size_t nlen)
{
	pick = level_dir(pick, dir, dlen);
	snprintf(name, nlen, "F%u.DAT", pick % IPX_BN_SEARCH_NAMES);
}

void ipx_bn_path_private(unsigned station, char *buf, size_t len)
{
	snprintf(buf, len, "%s\\PRIV%02u.DAT", IPX_BN_DIR, station % 100);
}

void ipx_bn_path_scratch(unsigned station, char *buf, size_t len)
{
	snprintf(buf, len, "%s\\TMP\\WS%02u.TMP", IPX_BN_DIR, station % 100);
}

void ipx_bn_path_copy(uint32_t size, char *buf, size_t len)
{
	snprintf(buf, len, "%s\\C%u.DAT", IPX_BN_DIR, size);
}

void ipx_bn_path_perf(unsigned station, char *buf, size_t len)
{
	snprintf(buf, len, "%s\\TMP\\PERF%02u.DAT", IPX_BN_DIR, station % 100);
}

void ipx_bn_path_image(unsigned i, char *buf, size_t len)
{
	snprintf(buf, len, "%s\\IMG%03u.TIF", IPX_BN_IMAGE_DIR, i % 1000);
}
