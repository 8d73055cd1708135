/*
 * work_ncp.c - the NCP workload (IPX_BW_NCP): a workstation that repeats
 * one file-server operation of B2/B3 (bench_ncp.h) as an NCP client of
 * the server at params.peer.addr, for a time or a count.
 *
 * The NCP client's calls are synchronous (they run the loop until the
 * reply), so set-up and every operation run from a timer of their own,
 * never inside the harness's message handling, one operation per timer
 * run; while one is in progress the loop keeps serving the control
 * session, and a free asked for meanwhile waits for the call to return
 * (bw_enter/bw_leave). On a simulated clock each timer run is a loop task
 * (ipx_loop_spawn): its calls wait on its own stack, so many workstations
 * on one loop (the whole network in one process: bench_sim.h) wait side
 * by side and each call returns when its reply is there, not once the
 * calls started after it have. In real time each workstation is its own
 * process and runs them inline. What an operation does, exactly:
 *
 *   open-multi/single  0x4C open (read) of a random fixture file, 0x42
 *                      close; the server counts both
 *   shared-small/large 1-byte 0x48 read at a random offset of a handle
 *                      opened at set-up; the client caches nothing
 *   create             0x43 create of its own scratch file, one 16 KB
 *                      write (the buffer size splits it), close, 0x44
 *                      erase
 *   private-random/seq 64-byte reads of its own 128 KB file; on a period
 *                      shell with cache buffers through its cache of
 *                      non-shared files (bench_shellcache.h)
 *   block              16 KB read at offset 0 of the 4 MB shared file
 *   dir-search         0x3E, then 0x3F "*.*" requests in the top
 *                      directory: one operation per request (one entry,
 *                      or the request that finds no more)
 *   random-search      0x3E/0x3F for one name in a random directory; a
 *                      third of the names do not exist (counted)
 *   lock               0x1A lock (exclusive, no wait) and 0x1E clear of
 *                      the record at 64 x station in the 4 KB file
 *   ping               Novell ping of the server node (socket 0x9086)
 *   copy               open, read the whole file, write it to a new local
 *                      file, close both; on a period machine first the
 *                      copy program's start-up (copy_start)
 *   perftest           a write of 'size' bytes (default 4,096; buffer-size
 *                      0x49 requests) at
 *                      offset 0 of its own file, created at set-up: each
 *                      record overlaid on the previous one
 *   get                'size' bytes (default 256 KB) of the 4 MB shared
 *                      file in buffer-size 0x48 reads, the next part each
 *                      time, from offset 0 again at the end (bench ncp)
 *   perform3-read      B7: 'size' bytes at offset 0 of its own 128 KB
 *                      private file (buffer-size 0x48 reads)
 *   perform3-write     B7: 'size' bytes at offset 0 of B4's file, its own
 *   retrieve           B8: the next image of its own order of 'size'
 *                      images (ipx_bn_image_pick: never one twice in
 *                      'size' operations), opened, read whole in 64 KB
 *                      calls (buffer-size 0x48 reads), closed; a size not
 *                      the fixture's fails the run. 'delivered' is the
 *                      microseconds from go to the first one's end. On
 *                      a period machine (host.h) the program starts
 *                      first (its 'start' CPU, its 'start-bytes' read
 *                      from the shared 4 MB file) and each image costs
 *                      its 'app-item' CPU once read
 *
 * With params.single_frame every link of the node sends and receives one
 * frame per system call for the run (ipx_link.single_frame), else in
 * batches.
 *
 * The client asks for params.ncp_buffer (0: 4,096) and packet burst
 * unless params.ncp_no_burst; the result says what it was granted.
 */
#include "work_int.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ipxlab/bench_ncp.h"
#include "ipxlab/bench_shellcache.h"
#include "ipxlab/err.h"
#include "ipxlab/host.h"
#include "ipxlab/link.h"
#include "ipxlab/ncp_client.h"
#include "ipxlab/ping.h"

#define NCP_WANT_BUFSIZE 4096
#define PING_SOCKET 0x9086
#define PING_TRIES 3
#define PING_MAX_DATA 1500	/* a buffer of NCP data on any link */
#define COPY_CHUNK 65536

struct ncpw {
	struct ncp_client *cl;
	struct ipx_socket *ping;
	uint16_t ping_id;
	bool pong;
	struct ncp_fh fh;
	uint8_t *buf;		/* COPY_CHUNK bytes; get: its part */
	uint32_t rng, off;
	ipx_time since;		/* dir-search: the request's start */
	struct ipx_timer step;
	struct ipx_timer bye;	/* the disconnect, after the run's event */
	uint64_t wire0, wire1;	/* link bytes at go and at the end */
	bool wire_frozen;
	uint64_t misses;
	ipx_time go_at, first;	/* retrieve: go, the first one's end */
	uint16_t granted;	/* the buffer negotiated at set-up */
	bool burst;		/* and whether burst was granted */
	char local[64];		/* copy: the local file */
	/* private-random/seq on a period shell with cache buffers: the
	 * shell's cache of its non-shared file (bench_shellcache.h) */
	struct ipx_shellcache *cache;
	struct ipx_host *cache_host;
};

static uint32_t next_rand(struct ncpw *f)
{
	/* xorshift32: every workstation its own sequence */
	f->rng ^= f->rng << 13;
	f->rng ^= f->rng >> 17;
	f->rng ^= f->rng << 5;
	return f->rng;
}

static uint64_t wire_bytes(const struct ipx_bw *w)
{
	uint64_t n = 0;

	for (size_t i = 0; i < ipx_node_link_count(w->node); i++) {
		const struct ipx_link *l = ipx_node_link(w->node, i);

		n += l->stats.tx_bytes + l->stats.rx_bytes;
	}
	return n;
}

/* ---- ping ---- */

static void on_pong(struct ipx_socket *s, const struct ipx_header *h,
		    const uint8_t *data, size_t len, void *ctx)
{
	struct ncpw *f = ctx;
	struct ipx_ping p;
	enum ipx_ping_drop why;

	(void)s;
	(void)h;
	if (ipx_ping_decode(data, len, &p, &why) == IPX_OK &&
	    p.type == IPX_PING_REPLY && p.id == f->ping_id)
		f->pong = true;
}

static bool got_pong(void *ctx)
{
	return ((struct ncpw *)ctx)->pong;
}

static int do_ping(struct ipx_bw *w, struct ncpw *f)
{
	uint8_t pkt[1600];
	struct ipx_addr to = w->p.peer.addr;
	size_t data = w->p.size > PING_MAX_DATA ? PING_MAX_DATA : w->p.size;

	to.socket = PING_SOCKET;
	memset(f->buf, 0, data);
	for (int t = 0; t < PING_TRIES; t++) {
		size_t len = ipx_ping_encode(IPX_PING_REQUEST, ++f->ping_id,
					     f->buf, data, pkt, sizeof(pkt));
		int rc;

		f->pong = false;
		rc = ipx_socket_sendto(f->ping, &to, IPX_TYPE_PEP, pkt, len);
		if (rc != IPX_OK)
			return rc;
		rc = ipx_loop_run_until(w->loop, got_pong, f,
					IPX_BW_RTT_TIMEOUT);
		if (rc == IPX_ECLOSED)
			return NCP_E_INTERRUPTED;
		if (f->pong)
			return 0;
	}
	return NCP_E_TIMEOUT;
}

/* ---- the operations ---- */

static int read_exact(struct ncpw *f, uint32_t off, size_t n)
{
	size_t got;
	int rc = ncp_read(f->cl, &f->fh, off, f->buf, n, &got);

	return rc ? rc : got == n ? 0 : NCP_E_BADREPLY;
}

/* The shell cache's fetch: one read of the private file. */
static int cache_fetch(void *ctx, uint32_t off, uint8_t *buf, size_t n,
		       size_t *got)
{
	struct ncpw *f = ctx;

	return ncp_read(f->cl, &f->fh, off, buf, n, got);
}

/*
 * A read of the workstation's own file: through the shell's cache when
 * its period shell has one. A read the cache answers sends nothing and
 * costs the workstation the shell's request path (the DOS call and the
 * shell's own work, without the network: its shell-request cost); one
 * that fetched blocks costs, beyond the fetches, the shell's move of
 * their bytes into the cache (its cache-fill rate).
 */
static int read_private(struct ncpw *f, uint32_t off, size_t n)
{
	const struct ipx_machine *m;
	uint64_t before, fill_ns;
	size_t got;
	bool hit;
	int rc;

	if (!f->cache)
		return read_exact(f, off, n);
	m = ipx_host_machine(f->cache_host);
	before = ipx_shellcache_stats(f->cache)->bytes;
	rc = ipx_shellcache_read(f->cache, off, f->buf, n, &got, &hit);
	if (rc)
		return rc;
	fill_ns = ipx_machine_cache_fill_ns(
		m, ipx_shellcache_stats(f->cache)->bytes - before);
	ipx_host_work(f->cache_host,
		      hit ? ipx_machine_cost_ns(m, IPX_COST_SHELL_REQUEST)
			  : fill_ns);
	return got == n ? 0 : NCP_E_BADREPLY;
}

static int open_close(struct ncpw *f, bool multi)
{
	char path[128];
	struct ncp_fh fh;
	int rc;

	ipx_bn_path_open(multi, next_rand(f), path, sizeof(path));
	rc = ncp_open(f->cl, path, NCP_OPEN_READ, &fh);
	return rc ? rc : ncp_close(f->cl, &fh);
}

static int create_write_delete(struct ipx_bw *w, struct ncpw *f)
{
	char path[128];
	struct ncp_fh fh;
	int rc;

	ipx_bn_path_scratch(w->p.station, path, sizeof(path));
	rc = ncp_open(f->cl, path, NCP_OPEN_CREATE, &fh);
	if (rc)
		return rc;
	rc = ncp_write(f->cl, &fh, 0, f->buf, IPX_BN_CREATE_SIZE);
	if (!rc)
		rc = ncp_close(f->cl, &fh);
	else
		ncp_close(f->cl, &fh);
	return rc ? rc : ncp_erase(f->cl, path);
}

static int random_search(struct ncpw *f)
{
	char dir[96], name[16], path[128];
	struct ncp_entry e;
	int rc;

	ipx_bn_path_search(next_rand(f), dir, sizeof(dir), name,
			   sizeof(name));
	snprintf(path, sizeof(path), "%s\\%s", dir, name);
	rc = ncp_stat(f->cl, path, &e);
	if (rc == NCP_CC_FAILURE) {
		f->misses++;
		return 0;
	}
	return rc;
}

static int lock_unlock(struct ipx_bw *w, struct ncpw *f)
{
	uint32_t at = (uint32_t)w->p.station * IPX_BN_PRIV_RECORD;
	int rc = ncp_lock_record(f->cl, &f->fh, NCP_LOCK_EXCL, at,
				 IPX_BN_PRIV_RECORD, 0);

	return rc ? rc : ncp_clear_record(f->cl, &f->fh, at,
					  IPX_BN_PRIV_RECORD);
}

/*
 * On a period machine (host.h), the copy program starts as DOS started
 * it: the shell loads its program file from the server ('start-bytes' of
 * the station's software, read in buffer-size requests), then DOS EXEC's
 * and the program's own start-up take 'start' of CPU. Nothing without a
 * host (the wire alone) or without start-bytes and start.
 */
/* The program file read through the shell: open, want bytes in
 * buffer-size requests, close. */
static int load_program(struct ipx_bw *w, struct ncpw *f, uint32_t want)
{
	struct ncp_fh fh;
	uint32_t off = 0;
	int rc;

	(void)w;
	rc = ncp_open(f->cl, IPX_BN_PROGRAM_FILE, NCP_OPEN_READ, &fh);
	while (!rc && off < want) {
		size_t got, n = want - off < COPY_CHUNK ? want - off
							: COPY_CHUNK;

		rc = ncp_read(f->cl, &fh, off, f->buf, n, &got);
		if (!rc && !got)
			rc = NCP_E_BADREPLY;
		off += (uint32_t)got;
	}
	return rc ? rc : ncp_close(f->cl, &fh);
}

static int copy_start(struct ipx_bw *w, struct ncpw *f)
{
	struct ipx_host *h = ipx_link_host(ipx_node_link(w->node, 0));
	const struct ipx_machine *m = h ? ipx_host_machine(h) : NULL;
	uint32_t want = m ? ipx_machine_start_bytes(m) : 0;
	int rc = 0;

	if (!m)
		return 0;
	if (want > IPX_BN_PROGRAM_SIZE) {
		bw_set_error(w, "copy: start-bytes %u exceeds the program file "
				"%s (%u bytes)",
			     want, IPX_BN_PROGRAM_FILE, IPX_BN_PROGRAM_SIZE);
		return NCP_E_LOCAL;
	}
	if (want)
		rc = load_program(w, f, want);
	if (!rc)
		ipx_host_work(h, ipx_machine_cost_ns(m, IPX_COST_START));
	return rc;
}

/*
 * On a period machine with a disk, what writing got bytes to the local
 * disk costs the workstation: DOS writes through (no write-behind), and
 * an AT's disk moves its data by the CPU's port I/O, so the CPU is busy
 * the seek and the transfer (one of each per write call).
 */
static void local_write(struct ipx_bw *w, size_t got)
{
	struct ipx_host *h = ipx_link_host(ipx_node_link(w->node, 0));
	const struct ipx_machine *m = h ? ipx_host_machine(h) : NULL;

	if (m && (m->seek_ns || m->disk_rate))
		ipx_host_work(h, m->seek_ns +
				 (m->disk_rate ? (uint64_t)got * 1000000000u /
							 m->disk_rate
					       : 0));
}

static int copy_file(struct ipx_bw *w, struct ncpw *f)
{
	char path[128];
	struct ncp_fh fh;
	uint32_t off = 0;
	int rc, fd;

	rc = copy_start(w, f);
	if (rc)
		return rc;
	ipx_bn_path_copy((uint32_t)w->p.size, path, sizeof(path));
	rc = ncp_open(f->cl, path, NCP_OPEN_READ, &fh);
	if (rc)
		return rc;
	fd = open(f->local, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (fd < 0) {
		ncp_close(f->cl, &fh);
		return NCP_E_LOCAL;
	}
	for (;;) {
		size_t got;

		rc = ncp_read(f->cl, &fh, off, f->buf, COPY_CHUNK, &got);
		if (rc || !got)
			break;
		if (write(fd, f->buf, got) != (ssize_t)got) {
			rc = NCP_E_LOCAL;
			break;
		}
		local_write(w, got);
		off += (uint32_t)got;
		if (got < COPY_CHUNK)
			break;
	}
	if (close(fd) < 0 && !rc)
		rc = NCP_E_LOCAL;
	if (!rc && off != w->p.size)
		rc = NCP_E_BADREPLY;	/* the file is not the size asked */
	if (!rc)
		rc = ncp_close(f->cl, &fh);
	else
		ncp_close(f->cl, &fh);
	return rc;
}

/* The period machine of the workstation's node (host.h), or NULL. */
static struct ipx_host *node_host(const struct ipx_bw *w)
{
	for (size_t i = 0; i < ipx_node_link_count(w->node); i++) {
		struct ipx_host *h = ipx_link_host(ipx_node_link(w->node, i));

		if (h)
			return h;
	}
	return NULL;
}

/* On a period machine, before the first image: the retrieval program's
 * start-up, its own CPU ('start') and its files read from the server
 * ('start-bytes': the first bytes of the shared 4 MB file in 64 KB
 * calls, as the loader reads a program file every workstation shares). */
static int program_start(struct ipx_bw *w, struct ncpw *f,
			 struct ipx_host *h)
{
	const struct ipx_machine *m = ipx_host_machine(h);
	uint32_t want = ipx_machine_start_bytes(m), off = 0;
	struct ncp_fh fh;
	size_t got = 0;
	int rc;

	(void)w;
	ipx_host_work(h, ipx_machine_cost_ns(m, IPX_COST_START));
	if (!want)
		return 0;
	if (want > IPX_BN_LARGE_SIZE)
		want = IPX_BN_LARGE_SIZE;
	rc = ncp_open(f->cl, IPX_BN_LARGE_FILE, NCP_OPEN_READ, &fh);
	if (rc)
		return rc;
	while (!rc && off < want) {
		uint32_t n = want - off < COPY_CHUNK ? want - off : COPY_CHUNK;

		rc = ncp_read(f->cl, &fh, off, f->buf, n, &got);
		off += (uint32_t)got;
		if (!rc && got < n)
			rc = NCP_E_BADREPLY;
	}
	if (!rc)
		return ncp_close(f->cl, &fh);
	ncp_close(f->cl, &fh);
	return rc;
}

static int retrieve(struct ipx_bw *w, struct ncpw *f)
{
	char path[128];
	struct ipx_host *h = node_host(w);
	unsigned img;
	struct ncp_fh fh;
	uint32_t off = 0;
	size_t got = 0;
	int rc;

	if (h && !f->off && (rc = program_start(w, f, h)) != 0)
		return rc;
	img = ipx_bn_image_pick(w->p.station, f->off++, (unsigned)w->p.size);
	ipx_bn_path_image(img, path, sizeof(path));
	rc = ncp_open(f->cl, path, NCP_OPEN_READ, &fh);
	if (rc)
		return rc;
	do {
		rc = ncp_read(f->cl, &fh, off, f->buf, COPY_CHUNK, &got);
		off += (uint32_t)got;
	} while (!rc && got == COPY_CHUNK);
	if (!rc && off != ipx_bn_image_size(img))
		rc = NCP_E_BADREPLY;	/* not the fixture's image */
	if (!rc)
		rc = ncp_close(f->cl, &fh);
	else
		ncp_close(f->cl, &fh);
	/* the program's own work on the image it got (a period machine):
	 * what it sends next waits for it */
	if (!rc && h)
		ipx_host_work(h, ipx_machine_cost_ns(ipx_host_machine(h),
						     IPX_COST_APP_ITEM));
	if (!rc && !f->first)
		f->first = bw_now(w) > f->go_at ? bw_now(w) - f->go_at : 1;
	return rc;
}

/* dir-search: each entry answered completes one operation; stop when
 * no more may start. */
static int on_entry(const struct ncp_entry *e, void *ctx)
{
	struct ipx_bw *w = ctx;
	struct ncpw *f = w->fam;

	(void)e;
	bw_completed(w, f->since);
	f->since = bw_now(w);
	return bw_may_start(w) ? 0 : 1;
}

static int dir_search(struct ipx_bw *w, struct ncpw *f)
{
	int rc;

	f->since = bw_now(w);
	rc = ncp_list(f->cl, IPX_BN_DIR, "*.*", on_entry, w);
	/* the listing ended by itself: its last request found no more
	 * (completed here); stopped by on_entry: none outstanding */
	if (!rc && bw_in_flight(w))
		bw_completed(w, f->since);
	return rc;
}

static size_t get_part(const struct ipx_bw *w)
{
	return w->p.size ? w->p.size : IPX_BN_GET_PART;
}

static int do_op(struct ipx_bw *w, struct ncpw *f)
{
	uint32_t r;

	switch ((enum ipx_bn_op)w->p.op) {
	case IPX_BN_OPEN_MULTI:
		return open_close(f, true);
	case IPX_BN_OPEN_SINGLE:
		return open_close(f, false);
	case IPX_BN_SHARED_SMALL:
	case IPX_BN_SHARED_LARGE:
		return read_exact(f, next_rand(f) % f->fh.size, 1);
	case IPX_BN_CREATE:
		return create_write_delete(w, f);
	case IPX_BN_PRIV_RANDOM:
		r = next_rand(f) % (IPX_BN_PRIV_SIZE / IPX_BN_PRIV_RECORD);
		return read_private(f, r * IPX_BN_PRIV_RECORD,
				    IPX_BN_PRIV_RECORD);
	case IPX_BN_PRIV_SEQ:
		if (f->off + IPX_BN_PRIV_RECORD > IPX_BN_PRIV_SIZE)
			f->off = 0;
		f->off += IPX_BN_PRIV_RECORD;
		return read_private(f, f->off - IPX_BN_PRIV_RECORD,
				    IPX_BN_PRIV_RECORD);
	case IPX_BN_BLOCK:
		return read_exact(f, 0, IPX_BN_BLOCK_SIZE);
	case IPX_BN_DIR_SEARCH:
		return dir_search(w, f);
	case IPX_BN_RANDOM_SEARCH:
		return random_search(f);
	case IPX_BN_LOCK:
		return lock_unlock(w, f);
	case IPX_BN_PING:
		return do_ping(w, f);
	case IPX_BN_COPY:
		return copy_file(w, f);
	case IPX_BN_PERFTEST:
		return ncp_write(f->cl, &f->fh, 0, f->buf,
				 w->p.size ? w->p.size : IPX_BN_PERF_RECORD);
	case IPX_BN_P3_READ:
		return read_exact(f, 0, w->p.size);
	case IPX_BN_P3_WRITE:
		return ncp_write(f->cl, &f->fh, 0, f->buf, w->p.size);
	case IPX_BN_RETRIEVE:
		return retrieve(w, f);
	case IPX_BN_GET:
		if (f->off + get_part(w) > f->fh.size)
			f->off = 0;
		f->off += (uint32_t)get_part(w);
		return read_exact(f, f->off - (uint32_t)get_part(w),
				  get_part(w));
	default:
		return IPX_EINVAL;
	}
}

static const char *err_text(int rc)
{
	return rc < 0 ? ipx_strerror(rc) : ncp_strerror(rc);
}

static void on_bye(struct ipx_loop *loop, struct ipx_timer *t, void *ctx)
{
	struct ipx_bw *w = ctx;
	struct ncpw *f = w->fam;

	(void)loop;
	(void)t;
	bw_enter(w);
	ncp_disconnect(f->cl);
	bw_leave(w);
}

/*
 * The run is over (DONE or FAILED): the wire count stops, and the
 * connection is destroyed in a timer of its own, where running the loop
 * is safe, a microsecond later than the event's timer: so the agent's
 * RESULT leaves before the destroy request, and a capture's window that
 * ends at the RESULT holds the operations only (bench arrival).
 */
static void finish(struct ipx_bw *w, struct ncpw *f)
{
	if (!f->wire_frozen) {
		f->wire1 = wire_bytes(w);
		f->wire_frozen = true;
	}
	if (f->cl && !ipx_timer_active(&f->bye))
		ipx_timer_start(w->loop, &f->bye, 1, 0);
}

/* Run a timer's work as a loop task on a simulated clock, where many
 * workstations share the loop; inline on a real one, where each is its
 * own process (and if no task can be made). */
static void as_task(struct ipx_loop *loop, void (*fn)(void *ctx), void *ctx)
{
	const struct ipx_bw *w = ctx;

	if ((!ipx_loop_clock(loop)->simulated && !w->p.tasks) ||
	    ipx_loop_spawn(loop, fn, ctx) != IPX_OK)
		fn(ctx);
}

static void step_task(void *ctx)
{
	struct ipx_bw *w = ctx;
	struct ipx_loop *loop = w->loop;
	struct ncpw *f = w->fam;
	ipx_time since;
	int rc;

	if (!bw_may_start(w)) {
		if (!bw_live(w))
			finish(w, f);
		return;
	}
	since = bw_now(w);
	bw_enter(w);
	rc = do_op(w, f);
	if (!bw_leave(w))
		return;		/* freed while the call ran */
	if (rc)
		bw_fail(w, "%s: %s", ipx_bn_op_name((enum ipx_bn_op)w->p.op),
			err_text(rc));
	else if (w->p.op != IPX_BN_DIR_SEARCH)
		bw_completed(w, since);
	if (bw_live(w))
		ipx_timer_start(loop, &f->step, 0, 0);
	else
		finish(w, f);
}

static void on_step(struct ipx_loop *loop, struct ipx_timer *t, void *ctx)
{
	(void)t;
	as_task(loop, step_task, ctx);
}

/* ---- set-up ---- */

static const char *setup_file(const struct ipx_bw *w, char *buf, size_t len)
{
	switch ((enum ipx_bn_op)w->p.op) {
	case IPX_BN_SHARED_SMALL:
	case IPX_BN_LOCK:
		return IPX_BN_SMALL_FILE;
	case IPX_BN_SHARED_LARGE:
	case IPX_BN_BLOCK:
	case IPX_BN_GET:
		return IPX_BN_LARGE_FILE;
	case IPX_BN_PRIV_RANDOM:
	case IPX_BN_PRIV_SEQ:
	case IPX_BN_P3_READ:
		ipx_bn_path_private(w->p.station, buf, len);
		return buf;
	default:
		return NULL;
	}
}

/*
 * The private files are each workstation's own, the non-shared files a
 * 1990 shell cached: on a period machine whose shell has cache buffers,
 * their reads go through a cache of that many blocks of the negotiated
 * buffer's size. Every other file is shared (or read in blocks larger
 * than the cache's), as the note says of its shared-file tests.
 */
static int setup_cache(struct ipx_bw *w, struct ncpw *f)
{
	struct ipx_host *h = node_host(w);
	uint32_t n = h ? ipx_machine_cache_buffers(ipx_host_machine(h)) : 0;
	int rc;

	if (!n || (w->p.op != IPX_BN_PRIV_RANDOM && w->p.op != IPX_BN_PRIV_SEQ))
		return 0;
	rc = ipx_shellcache_new(n, f->granted, cache_fetch, f, &f->cache);
	if (rc != IPX_OK) {
		bw_set_error(w, "the shell's cache: %s", ipx_strerror(rc));
		return rc;
	}
	f->cache_host = h;
	return 0;
}

static int setup(struct ipx_bw *w, struct ncpw *f)
{
	char path[128];
	const char *file = setup_file(w, path, sizeof(path));
	/* one request at a time, as the 1990 workstations (packet burst
	 * came in 1993; bench ncp measures it apart, ncp_burst.c): only
	 * B7's and B8's operations ask for it, unless params.ncp_no_burst */
	bool may = w->p.op == IPX_BN_P3_READ || w->p.op == IPX_BN_P3_WRITE ||
		   w->p.op == IPX_BN_RETRIEVE;
	struct ncp_client_opts co = { .retries = -1,
				      .no_burst = !may || w->p.ncp_no_burst };
	int rc = ncp_client_new(w->node, &co, &f->cl);

	if (rc != IPX_OK) {
		bw_set_error(w, "NCP client: %s", ipx_strerror(rc));
		return rc;
	}
	rc = ncp_connect(f->cl, &w->p.peer.addr);
	if (!rc)
		rc = ncp_login(f->cl, "GUEST", "");
	if (!rc)
		rc = ncp_negotiate(f->cl, w->p.ncp_buffer ? w->p.ncp_buffer
							  : NCP_WANT_BUFSIZE);
	if (rc) {
		bw_set_error(w, "the file server: %s", err_text(rc));
		return rc;
	}
	for (size_t i = 0; i < ipx_node_link_count(w->node); i++)
		ipx_node_link(w->node, i)->single_frame = w->p.single_frame;
	f->granted = ncp_bufsize(f->cl);
	f->burst = ncp_burst_active(f->cl);
	rc = setup_cache(w, f);
	if (rc)
		return rc;
	if (file) {
		rc = ncp_open(f->cl, file,
			      w->p.op == IPX_BN_LOCK ? NCP_OPEN_WRITE
						     : NCP_OPEN_READ,
			      &f->fh);
		if (rc) {
			bw_set_error(w, "open %s: %s", file, err_text(rc));
			return rc;
		}
		if (!f->fh.size) {
			bw_set_error(w, "%s is empty", file);
			return IPX_EINVAL;
		}
	}
	if (w->p.op == IPX_BN_COPY) {
		/* the copy program ran before the timed copies, as the 1990
		 * runs' first was no slower than the rest: its file is in the
		 * server's cache (a period machine's start-bytes; else
		 * nothing) */
		struct ipx_host *h = ipx_link_host(ipx_node_link(w->node, 0));
		uint32_t sb = h ? ipx_machine_start_bytes(ipx_host_machine(h))
				: 0;

		rc = sb && sb <= IPX_BN_PROGRAM_SIZE ? load_program(w, f, sb)
						     : 0;
		if (rc) {
			bw_set_error(w, "%s: %s", IPX_BN_PROGRAM_FILE,
				     err_text(rc));
			return rc;
		}
	}
	if (w->p.op == IPX_BN_CREATE) {
		ipx_bn_path_scratch(w->p.station, path, sizeof(path));
		ncp_erase(f->cl, path);	/* a leftover of an earlier run */
	}
	if (w->p.op == IPX_BN_PERFTEST || w->p.op == IPX_BN_P3_WRITE) {
		ipx_bn_path_perf(w->p.station, path, sizeof(path));
		rc = ncp_open(f->cl, path, NCP_OPEN_CREATE, &f->fh);
		if (rc) {
			bw_set_error(w, "create %s: %s", path, err_text(rc));
			return rc;
		}
	}
	return 0;
}

static void setup_task(void *ctx)
{
	struct ipx_bw *w = ctx;
	int rc;

	bw_enter(w);
	rc = setup(w, w->fam);
	if (!bw_leave(w))
		return;
	if (rc) {
		bw_fail(w, "%s", w->err);
		finish(w, w->fam);
	} else {
		bw_ready(w);
	}
}

static void on_setup(struct ipx_loop *loop, struct ipx_timer *t, void *ctx)
{
	(void)t;
	as_task(loop, setup_task, ctx);
}

static int ncpw_open(struct ipx_bw *w)
{
	struct ncpw *f;
	int rc;

	if (w->role != IPX_BW_SENDER) {
		bw_set_error(w, "the NCP kind has only a sender (the server "
				"is the other side)");
		return IPX_EINVAL;
	}
	if (w->p.op >= IPX_BN_OPS) {
		bw_set_error(w, "unknown NCP operation %u", w->p.op);
		return IPX_EINVAL;
	}
	if (w->p.op == IPX_BN_COPY && w->p.size == 0) {
		bw_set_error(w, "copy: no file size");
		return IPX_EINVAL;
	}
	if (w->p.op == IPX_BN_PERFTEST && w->p.size > IPX_BN_PERF_MAX_RECORD) {
		bw_set_error(w, "perftest: records of at most %d bytes",
			     IPX_BN_PERF_MAX_RECORD);
		return IPX_EINVAL;
	}
	if ((w->p.op == IPX_BN_P3_READ || w->p.op == IPX_BN_P3_WRITE) &&
	    (w->p.size == 0 || w->p.size > IPX_BN_P3_MAX_BLOCK)) {
		bw_set_error(w, "perform3: blocks of 1 to %d bytes",
			     IPX_BN_P3_MAX_BLOCK);
		return IPX_EINVAL;
	}
	if (w->p.op == IPX_BN_RETRIEVE &&
	    (w->p.size == 0 || w->p.size > IPX_BN_IMAGES)) {
		bw_set_error(w, "retrieve: 1 to %d images", IPX_BN_IMAGES);
		return IPX_EINVAL;
	}
	if (w->p.op == IPX_BN_GET && w->p.size > IPX_BN_GET_MAX_PART) {
		bw_set_error(w, "get: parts of at most %d bytes",
			     IPX_BN_GET_MAX_PART);
		return IPX_EINVAL;
	}
	f = calloc(1, sizeof(*f));
	if (f)
		f->buf = calloc(1, w->p.op == IPX_BN_GET &&
					   get_part(w) > COPY_CHUNK
				       ? get_part(w)
				       : COPY_CHUNK);
	if (!f || !f->buf) {
		if (f)
			free(f);
		bw_set_error(w, "out of memory");
		return IPX_ENOMEM;
	}
	w->fam = f;
	f->rng = 2654435761u * (w->p.station + 1u) + w->p.op;
	if (!f->rng)
		f->rng = 1;
	ipx_timer_init(&f->step, on_setup, w);
	ipx_timer_init(&f->bye, on_bye, w);
	if (w->p.op == IPX_BN_PING) {
		rc = ipx_socket_open(w->node, 0, on_pong, f, &f->ping);
		if (rc != IPX_OK) {
			bw_set_error(w, "ping socket: %s", ipx_strerror(rc));
			return rc;
		}
	}
	if (w->p.op == IPX_BN_COPY) {
		int fd;

		const char *tmp = getenv("TMPDIR");

		snprintf(f->local, sizeof(f->local), "%s/ipxlab-copy-XXXXXX",
			 tmp && *tmp && strlen(tmp) < 40 ? tmp : "/tmp");
		fd = mkstemp(f->local);
		if (fd < 0) {
			f->local[0] = '\0';
			bw_set_error(w, "local file: %s", strerror(errno));
			return IPX_EIO;
		}
		close(fd);
	}
	ipx_timer_start(w->loop, &f->step, 0, 0);
	return IPX_OK;
}

static void ncpw_go(struct ipx_bw *w)
{
	struct ncpw *f = w->fam;

	f->wire0 = wire_bytes(w);
	f->go_at = bw_now(w);
	ipx_timer_init(&f->step, on_step, w);
	ipx_timer_start(w->loop, &f->step, 0, 0);
}

static void ncpw_result(const struct ipx_bw *w, struct ipx_bw_result *r)
{
	struct ncpw *f = w->fam;

	if (!f)
		return;
	if (!f->wire_frozen)	/* ended by the clock between operations */
		f->wire1 = wire_bytes(w);
	r->delivered = w->p.op == IPX_BN_RETRIEVE ? (uint64_t)f->first
						  : f->misses;
	r->bytes = f->wire1 > f->wire0 ? f->wire1 - f->wire0 : 0;
	r->kbps = r->seconds > 0 ? (double)r->bytes / 1000.0 / r->seconds : 0;
	if (f->cl) {
		r->retransmits = ncp_client_stats(f->cl)->retransmits;
	}
	if (w->p.ncp_buffer) {	/* asked for: say what was granted */
		r->ncp_buffer = f->granted;
		r->ncp_burst = f->burst;
	}
}

static void ncpw_close(struct ipx_bw *w)
{
	struct ncpw *f = w->fam;

	if (!f)
		return;
	ipx_timer_stop(w->loop, &f->step);
	ipx_timer_stop(w->loop, &f->bye);
	/* no call that runs the loop here (a free may come from inside the
	 * harness's message handling): a run that ended has disconnected
	 * already (finish); else the server's watchdog clears it */
	ncp_client_abandon(f->cl);
	if (f->ping)
		ipx_socket_close(f->ping);
	if (f->local[0])
		unlink(f->local);
	ipx_shellcache_free(f->cache);
	free(f->buf);
	free(f);
	w->fam = NULL;
}

const struct bw_ops bw_ncp_ops = {
	.open = ncpw_open,
	.go = ncpw_go,
	.result = ncpw_result,
	.close = ncpw_close,
};
