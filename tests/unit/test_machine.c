/*
 * test_machine.c - period machines: the files parse (every named one),
 * a machine's cost is its programs' sum over its speed, a packet's
 * simulated time through a host is the sum of its parts, a cached read
 * costs no seek, a reply waits for the disk but the CPU does not, the
 * same run repeats exactly, and bad files are refused with FILE:LINE.
 */
#include "cm.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ipxlab/bytes.h"
#include "ipxlab/err.h"
#include "ipxlab/host.h"
#include "ipxlab/link_mem.h"
#include "ipxlab/loop.h"
#include "ipxlab/machine.h"
#include "tfile.h"

static struct ipx_machine parse_machine(const char *text)
{
	struct ipx_machine m;
	char err[1024] = "";
	int rc = ipx_machine_parse(text, strlen(text), "t.machine", NULL, &m,
				   err, sizeof(err));

	if (rc != IPX_OK)
		fail_msg("%s", err);
	return m;
}

static void every_named_period_parses(void **state)
{
	char names[1024], *save = NULL;
	int n = 0;

	(void)state;
	ipx_machine_names("period", names, sizeof(names));
	for (char *w = strtok_r(names, ", ", &save); w;
	     w = strtok_r(NULL, ", ", &save)) {
		struct ipx_period p;
		char err[1024] = "";

		if (ipx_period_resolve(w, &p, err, sizeof(err)) != IPX_OK)
			fail_msg("%s: %s", w, err);
		assert_string_equal(p.name, w);
		assert_true(p.server.speed > 0 && p.station.speed > 0);
		assert_true(p.wire.name[0] != '\0');
		n++;
	}
	assert_true(n >= 1);
	ipx_machine_names("machine", names, sizeof(names));
	save = NULL;
	for (char *w = strtok_r(names, ", ", &save); w;
	     w = strtok_r(NULL, ", ", &save)) {
		struct ipx_machine m;
		char err[1024] = "";

		if (ipx_machine_resolve(w, &m, err, sizeof(err)) != IPX_OK)
			fail_msg("%s: %s", w, err);
	}
}

/* Two programs on a machine twice the reference's speed. */
static const char fast_text[] = "kind machine\n"
				"speed 2\n"
				"software ipx-1990 netbios-1990\n";

static void costs_sum_over_speed(void **state)
{
	struct ipx_machine m = parse_machine(fast_text);
	struct ipx_machine ref;
	char err[512];

	(void)state;
	assert_int_equal(ipx_machine_resolve("pc286-8", &ref, err,
					     sizeof(err)),
			 IPX_OK);
	assert_int_equal(m.nsoftware, 2);
	for (int op = 0; op < IPX_COST_OPS; op++) {
		uint64_t sum = m.software[0].cost_ns[op] +
			       m.software[1].cost_ns[op];

		assert_int_equal(ipx_machine_cost_ns(&m, op), sum / 2);
	}
	/* the reference machine's IPX send is the program's own */
	assert_int_equal(ipx_machine_cost_ns(&ref, IPX_COST_IPX_SEND),
			 ref.software[0].cost_ns[IPX_COST_IPX_SEND]);
}

/* ---- a host on an in-memory segment (no wire time) ---- */

struct rig {
	struct ipx_clock clk;
	struct ipx_loop *loop;
	struct ipx_mem_segment *seg;
	struct ipx_host *h;
	struct ipx_link *hl, *peer;
	ipx_time peer_at[8], host_at[8];
	int npeer, nhost;
	/* the host's node: on a packet, ask the disk for disk_len bytes at
	 * the offset in the packet's bytes 32-35, then reply */
	uint64_t disk_len;
	unsigned sync_blocks;	/* and so many blocks written at once */
	bool reply;
	uint8_t reply_socket;	/* the reply's destination socket: byte 36 */
};

static void peer_rx(struct ipx_link *l, const uint8_t *pkt, size_t len,
		    void *ctx)
{
	struct rig *r = ctx;

	(void)l, (void)pkt, (void)len;
	if (r->npeer < 8)
		r->peer_at[r->npeer++] = ipx_loop_now(r->loop);
}

static void host_rx(struct ipx_link *l, const uint8_t *pkt, size_t len,
		    void *ctx)
{
	struct rig *r = ctx;
	uint8_t out[64] = { 0 };

	if (r->nhost < 8)
		r->host_at[r->nhost++] = ipx_loop_now(r->loop);
	if (r->disk_len)	/* the offset the packet asks for */
		ipx_host_disk(r->h, 7, len >= 36 ? ipx_get32(pkt + 32) : 0,
			      r->disk_len, false);
	if (r->sync_blocks)
		ipx_host_disk_sync(r->h, r->sync_blocks);
	if (r->reply_socket && len >= 37)
		out[17] = pkt[36];
	if (r->reply)
		assert_int_equal(ipx_link_send(l, out, 64, r->peer->node),
				 IPX_OK);
}

static void rig_open(struct rig *r, const char *machine_text)
{
	struct ipx_machine m = parse_machine(machine_text);
	struct ipx_link *inner;

	memset(r, 0, sizeof(*r));
	ipx_clock_fake_init(&r->clk, 0);
	r->loop = ipx_loop_new(&r->clk);
	r->seg = ipx_mem_segment_new(r->loop, 1, 1);
	inner = ipx_mem_link_new(r->seg, NULL);
	r->peer = ipx_mem_link_new(r->seg, NULL);
	r->h = ipx_host_new(inner, &m, true);
	assert_non_null(r->h);
	r->hl = ipx_host_link(r->h);
	assert_ptr_equal(ipx_link_host(r->hl), r->h);
	r->hl->rx = host_rx;
	r->hl->rx_ctx = r;
	r->peer->rx = peer_rx;
	r->peer->rx_ctx = r;
}

static void rig_close(struct rig *r)
{
	ipx_link_close(r->hl);
	ipx_link_close(r->peer);
	ipx_mem_segment_free(r->seg);
	ipx_loop_free(r->loop);
}

/* An IPX packet of 'type' to 'socket' (30 bytes of header, len in all). */
static void packet(uint8_t *p, size_t len, uint8_t type, uint16_t socket)
{
	memset(p, 0, len);
	ipx_put16(p + 2, (uint16_t)len);
	p[5] = type;
	ipx_put16(p + 16, socket);
	ipx_put16(p + 28, socket);
}

static const char cpu_text[] =
	"kind machine\n"
	"speed 2\n"
	"copy-rate 1M          # 1 byte a microsecond\n"
	"software ipx-1990\n";

static void packet_time_is_the_sum_of_its_parts(void **state)
{
	struct rig r;
	uint8_t p[100];
	const struct ipx_machine *m;
	uint64_t send, spx;

	(void)state;
	rig_open(&r, cpu_text);
	m = ipx_host_machine(r.h);
	/* a plain IPX packet: the send over the speed, then 100 bytes */
	packet(p, sizeof(p), 4, 0x4000);
	send = m->software[0].cost_ns[IPX_COST_IPX_SEND] / 2 + 100000;
	assert_int_equal(ipx_host_packet_ns(m, true, true, p, sizeof(p)),
			 send);
	/* SPX adds its own */
	packet(p, sizeof(p), 5, 0x4000);
	spx = send + m->software[0].cost_ns[IPX_COST_SPX_SEND] / 2;
	assert_int_equal(ipx_host_packet_ns(m, true, true, p, sizeof(p)), spx);
	/* and it takes that simulated time: two sends one after another */
	assert_int_equal(ipx_link_send(r.hl, p, sizeof(p), r.peer->node),
			 IPX_OK);
	assert_int_equal(ipx_link_send(r.hl, p, sizeof(p), r.peer->node),
			 IPX_OK);
	ipx_loop_run_for(r.loop, IPX_SEC);
	assert_int_equal(r.npeer, 2);
	assert_int_equal(r.peer_at[0], (spx + 999) / 1000);
	assert_int_equal(r.peer_at[1], (2 * spx + 999) / 1000);
	assert_int_equal(ipx_host_stats(r.h)->cpu_ns, 2 * spx);
	/* a received one: the receive cost before the node sees it */
	packet(p, sizeof(p), 4, 0x4000);
	{
		ipx_time t0 = ipx_loop_now(r.loop);
		uint64_t recv = ipx_host_packet_ns(m, true, false, p,
						   sizeof(p));

		assert_int_equal(ipx_link_send(r.peer, p, sizeof(p),
					       r.hl->node),
				 IPX_OK);
		ipx_loop_run_for(r.loop, IPX_SEC);
		assert_int_equal(r.nhost, 1);
		assert_int_equal(r.host_at[0] - t0, (recv + 999) / 1000);
	}
	rig_close(&r);
}

static const char disk_text[] = "kind machine\n"
				"speed 1\n"
				"disk-seek 20ms\n"
				"disk-rate 1M\n"
				"cache 8K\n"
				"cache-block 4K\n";

static void a_cached_read_costs_no_seek(void **state)
{
	struct rig r;

	(void)state;
	rig_open(&r, disk_text);
	/* one block missed: the seek and 4,096 bytes at 1 MB/s */
	assert_int_equal(ipx_host_disk(r.h, 1, 0, 4096, false),
			 20000000 + 4096000);
	/* again: cached, no time */
	assert_int_equal(ipx_host_disk(r.h, 1, 100, 10, false), 0);
	assert_int_equal(ipx_host_stats(r.h)->cache_hits, 1);
	assert_int_equal(ipx_host_stats(r.h)->cache_misses, 1);
	/* a write: into the cache, nobody waits, then read back free */
	assert_int_equal(ipx_host_disk(r.h, 2, 0, 4096, true), 0);
	ipx_loop_run_for(r.loop, IPX_SEC);
	assert_int_equal(ipx_host_disk(r.h, 2, 0, 4096, false), 0);
	/* a third file pushes the least recently used (file 1) out */
	ipx_loop_run_for(r.loop, IPX_SEC);
	assert_int_equal(ipx_host_disk(r.h, 3, 0, 4096, false),
			 20000000 + 4096000);
	ipx_loop_run_for(r.loop, IPX_SEC);
	assert_int_equal(ipx_host_disk(r.h, 2, 0, 1, false), 0);
	assert_int_equal(ipx_host_disk(r.h, 1, 0, 1, false),
			 20000000 + 4096000);
	rig_close(&r);
}

static const char server_text[] = "kind machine\n"
				  "speed 1\n"
				  "software ipx-1990\n"
				  "disk-seek 20ms\n"
				  "disk-rate 1M\n"
				  "cache 64K\n"
				  "cache-block 4K\n";

static void a_reply_waits_for_the_disk(void **state)
{
	struct rig r;
	uint8_t p[64];
	const struct ipx_machine *m;
	uint64_t recv, send, disk = 20000000 + 4096000;

	(void)state;
	rig_open(&r, server_text);
	m = ipx_host_machine(r.h);
	packet(p, sizeof(p), 4, 0x4000);
	recv = ipx_host_packet_ns(m, true, false, p, sizeof(p));
	send = ipx_host_packet_ns(m, true, true, p, sizeof(p));
	r.reply = true;
	r.disk_len = 4096;
	assert_int_equal(ipx_link_send(r.peer, p, sizeof(p), r.hl->node),
			 IPX_OK);
	ipx_loop_run_for(r.loop, IPX_SEC);
	assert_int_equal(r.npeer, 1);
	/* received, handled (the disk asked), the reply's own CPU time
	 * after the disk */
	assert_int_equal(r.peer_at[0], (recv + disk + send + 999) / 1000);
	/* the same block again: cached, the reply at once */
	{
		ipx_time t0 = ipx_loop_now(r.loop);

		assert_int_equal(ipx_link_send(r.peer, p, sizeof(p),
					       r.hl->node),
				 IPX_OK);
		ipx_loop_run_for(r.loop, IPX_SEC);
		assert_int_equal(r.npeer, 2);
		assert_int_equal(r.peer_at[1] - t0, (recv + send + 999) / 1000);
	}
	/* while the disk works the CPU takes other packets: two requests
	 * for blocks not cached, back to back; the second is received at
	 * once and its reply waits behind the first seek's */
	{
		ipx_time t0 = ipx_loop_now(r.loop);

		ipx_put32(p + 32, 65536);
		assert_int_equal(ipx_link_send(r.peer, p, sizeof(p),
					       r.hl->node),
				 IPX_OK);
		ipx_loop_run_for(r.loop, 1);
		ipx_put32(p + 32, 131072);
		assert_int_equal(ipx_link_send(r.peer, p, sizeof(p),
					       r.hl->node),
				 IPX_OK);
		ipx_loop_run_for(r.loop, IPX_SEC);
		assert_int_equal(r.nhost, 4);
		/* the second arrived 1 us later and was handled right after
		 * the first's receive, not after its disk time */
		assert_true(r.host_at[3] - t0 < (2 * recv) / 1000 + 2);
		assert_int_equal(r.npeer, 4);
		assert_true(r.peer_at[3] - t0 >= (2 * disk) / 1000);
	}
	rig_close(&r);
}

/* A server's directory writes: a seek and a block each, and the reply
 * waits for them; a packet never overtakes an earlier one to the same
 * destination that waits for the disk, one to another goes at once. */
static void sync_writes_and_the_order_of_replies(void **state)
{
	struct rig r;
	uint8_t p[64];
	const struct ipx_machine *m;
	uint64_t recv, send, blk = 20000000 + 4096000;
	ipx_time t0;

	(void)state;
	rig_open(&r, server_text);
	m = ipx_host_machine(r.h);
	packet(p, sizeof(p), 4, 0x4000);
	recv = ipx_host_packet_ns(m, true, false, p, sizeof(p));
	send = ipx_host_packet_ns(m, true, true, p, sizeof(p));
	r.reply = true;
	r.sync_blocks = 2;
	t0 = ipx_loop_now(r.loop);
	assert_int_equal(ipx_link_send(r.peer, p, sizeof(p), r.hl->node),
			 IPX_OK);
	ipx_loop_run_for(r.loop, IPX_SEC);
	assert_int_equal(r.npeer, 1);
	assert_int_equal(r.peer_at[0] - t0,
			 (recv + 2 * blk + send + 999) / 1000);
	assert_int_equal(ipx_host_stats(r.h)->disk_writes, 2);
	assert_int_equal(ipx_host_disk_sync(r.h, 0), 0);
	/* a request whose reply waits for a read, then one answered from
	 * the cache to the same destination: the second reply follows the
	 * first; to another destination (its socket) it goes at once */
	r.sync_blocks = 0;
	r.reply_socket = 1;
	for (int other = 0; other < 2; other++) {
		int n0 = r.npeer;

		t0 = ipx_loop_now(r.loop);
		r.disk_len = 4096;
		ipx_put32(p + 32, 65536u * (2 + (unsigned)other));
		p[36] = 0x10;
		assert_int_equal(ipx_link_send(r.peer, p, sizeof(p),
					       r.hl->node),
				 IPX_OK);
		ipx_loop_run_for(r.loop, 2000);	/* handled; the disk works */
		assert_int_equal(r.npeer, n0);
		r.disk_len = 0;
		p[36] = other ? 0x20 : 0x10;
		assert_int_equal(ipx_link_send(r.peer, p, sizeof(p),
					       r.hl->node),
				 IPX_OK);
		ipx_loop_run_for(r.loop, IPX_SEC);
		assert_int_equal(r.npeer, n0 + 2);
		if (other)	/* the unheld one first, at once */
			assert_true(r.peer_at[n0] - t0 < blk / 1000);
		else		/* both after the disk, in order */
			assert_true(r.peer_at[n0] - t0 >= blk / 1000 &&
				    r.peer_at[n0 + 1] >= r.peer_at[n0]);
	}
	rig_close(&r);
}

static void runs_repeat_exactly(void **state)
{
	ipx_time first[8];

	(void)state;
	for (int round = 0; round < 2; round++) {
		struct rig r;
		uint8_t p[200];

		rig_open(&r, server_text);
		r.reply = true;
		r.disk_len = 1000;
		for (int i = 0; i < 4; i++) {
			packet(p, sizeof(p), (uint8_t)(i % 2 ? 5 : 4), 0x451);
			ipx_put32(p + 32, (uint32_t)i * 5000);
			assert_int_equal(ipx_link_send(r.peer, p, sizeof(p),
						       r.hl->node),
					 IPX_OK);
			ipx_loop_run_for(r.loop, 3 * IPX_MSEC);
		}
		ipx_loop_run_for(r.loop, IPX_SEC);
		assert_int_equal(r.npeer, 4);
		for (int i = 0; i < 4; i++) {
			if (round == 0)
				first[i] = r.peer_at[i];
			else
				assert_int_equal(r.peer_at[i], first[i]);
		}
		rig_close(&r);
	}
}

/* ---- bad files ---- */

static void refuses(const char *text, const char *want)
{
	struct ipx_machine m;
	char err[1024] = "";
	int rc = ipx_machine_parse(text, strlen(text), "bad.machine", NULL,
				   &m, err, sizeof(err));

	assert_int_equal(rc, IPX_ECONFIG);
	if (!strstr(err, want))
		fail_msg("want '%s' in '%s'", want, err);
}

static void bad_machine_files_are_refused(void **state)
{
	(void)state;
	refuses("", "bad.machine: no settings");
	refuses("speed 1\n", "bad.machine:1: the first setting must be "
			     "'kind machine'");
	refuses("kind period\n", "bad.machine:1: this must be a machine file");
	refuses("kind machine\nspeed fast\n", "bad.machine:2: speed must be");
	refuses("kind machine\nspeed 0\n", "bad.machine:2: speed must be");
	refuses("kind machine\n\n# c\nsped 1\n",
		"bad.machine:4: unknown machine setting 'sped'");
	refuses("kind machine\nspeed 1\nsoftware nosuch\n",
		"bad.machine:3: no software named 'nosuch'");
	refuses("kind machine\nspeed 1\nbase pc286-8\n",
		"bad.machine:3: 'base' must come right after 'kind'");
	refuses("kind machine\nspeed 1\ndisk-seek 10ms\n",
		"bad.machine: a disk-seek or a cache needs a disk-rate");
	refuses("kind machine\nspeed 1\ndisk-rate 1M\ncache 1K\n"
		"cache-block 4K\n",
		"cannot hold one block");
	refuses("kind machine\nspeed 1\ndisk-seek 10 ms\n",
		"bad.machine:3: disk-seek must be a time");
	refuses("kind machine\nspeed\n", "bad.machine:2: 'speed' needs a "
					 "value");
	refuses("kind machine\n", "bad.machine: no speed");
}

/* A file period naming files beside it; a bad adapter among them. */
static void files_beside_a_period(void **state)
{
	char dir[] = "/tmp/ipxlab-mach.XXXXXX", path[256], err[1024] = "";
	struct ipx_period p;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/lab.period", dir);
	tfile_put(dir, "big.adapter",
		  "kind adapter\nmemory 8K\ntx-buffers 2\ntx-buffer-size 4K\n"
		  "rx-buffer-size 2K\n");
	tfile_put(dir, "ws.machine",
		  "kind machine\nbase pc286-8\nadapter big\n");
	tfile_put(dir, "lab.period",
		  "kind period\nwire tr4\nserver pc286-8\nstation ws\n");
	assert_int_equal(ipx_period_resolve(path, &p, err, sizeof(err)),
			 IPX_ECONFIG);
	if (!strstr(err, "lab.period:4:") || !strstr(err, "big.adapter:") ||
	    !strstr(err, "8192"))
		fail_msg("%s", err);
	/* fixed: the period parses, its station the 286 with that adapter */
	tfile_put(dir, "big.adapter",
		  "kind adapter\nmemory 16K\ntx-buffers 2\ntx-buffer-size 4K\n"
		  "rx-buffer-size 2K\n");
	if (ipx_period_resolve(path, &p, err, sizeof(err)) != IPX_OK)
		fail_msg("%s", err);
	assert_string_equal(p.name, "lab");
	assert_string_equal(p.station.adapter.name, "big");
	assert_int_equal(p.station.adapter.adapter.memory, 16384);
	assert_string_equal(p.station.software[0].name, "ipx-1990");
	assert_int_equal(ipx_machine_cache_buffers(&p.station), 0);
	/* a shell's cache buffers: a count from 0 to 64, the largest of a
	 * machine's software */
	tfile_put(dir, "cached.software",
		  "kind software\nbase shell-1990\ncache-buffers 65\n");
	tfile_put(dir, "lab.period",
		  "kind period\nwire tr4\nserver pc286-8\nstation ws\n"
		  "station-software ipx-1990 cached\n");
	assert_int_equal(ipx_period_resolve(path, &p, err, sizeof(err)),
			 IPX_ECONFIG);
	if (!strstr(err, "cached.software:3: cache-buffers must be a count "
			 "from 0 to 64 (got '65')"))
		fail_msg("%s", err);
	tfile_put(dir, "cached.software",
		  "kind software\nbase shell-1990\ncache-buffers 12\n");
	if (ipx_period_resolve(path, &p, err, sizeof(err)) != IPX_OK)
		fail_msg("%s", err);
	assert_int_equal(ipx_machine_cache_buffers(&p.station), 12);
	/* its cache fill: bytes/s on the reference machine, times the
	 * machine's speed; a rate it cannot read is refused */
	tfile_put(dir, "cached.software",
		  "kind software\nbase shell-1990\ncache-fill 500K\n");
	tfile_put(dir, "fast.machine", "kind machine\nbase pc286-8\nspeed 2\n");
	tfile_put(dir, "lab.period",
		  "kind period\nwire tr4\nserver pc286-8\nstation fast\n"
		  "station-software ipx-1990 cached\n");
	if (ipx_period_resolve(path, &p, err, sizeof(err)) != IPX_OK)
		fail_msg("%s", err);
	/* 1,000 bytes at 500,000 a second on a machine twice as fast */
	assert_int_equal(ipx_machine_cache_fill_ns(&p.station, 1000), 1000000);
	assert_int_equal(ipx_machine_cache_fill_ns(&p.station, 0), 0);
	assert_int_equal(ipx_machine_cache_fill_ns(&p.server, 1000), 0);
	tfile_put(dir, "cached.software",
		  "kind software\nbase shell-1990\ncache-fill quick\n");
	assert_int_equal(ipx_period_resolve(path, &p, err, sizeof(err)),
			 IPX_ECONFIG);
	if (!strstr(err, "cached.software:3: cache-fill must be a rate in "
			 "bytes/s"))
		fail_msg("%s", err);
	assert_int_equal(ipx_period_resolve("netware-1990", &p, err,
					    sizeof(err)),
			 IPX_OK);
	assert_int_equal(ipx_machine_cache_buffers(&p.station), 5);
	assert_int_equal(ipx_machine_cache_buffers(&p.server), 0);
	/* shell-1990's fill on the 286: 1,024 bytes at 330,000 a second */
	assert_int_equal(ipx_machine_cache_fill_ns(&p.station, 1024), 3103030);
	assert_int_equal(ipx_machine_dir_writes(&p.server), 2);
	assert_int_equal(ipx_machine_dir_writes(&p.station), 0);
	/* no such period, named or file */
	assert_int_equal(ipx_period_resolve("nosuch", &p, err, sizeof(err)),
			 IPX_ENOTFOUND);
	assert_non_null(strstr(err, "no period named 'nosuch'"));
	snprintf(path, sizeof(path), "rm -rf %s", dir);
	assert_int_equal(system(path), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(every_named_period_parses),
		cmocka_unit_test(costs_sum_over_speed),
		cmocka_unit_test(packet_time_is_the_sum_of_its_parts),
		cmocka_unit_test(a_cached_read_costs_no_seek),
		cmocka_unit_test(a_reply_waits_for_the_disk),
		cmocka_unit_test(runs_repeat_exactly),
		cmocka_unit_test(sync_writes_and_the_order_of_replies),
		cmocka_unit_test(bad_machine_files_are_refused),
		cmocka_unit_test(files_beside_a_period),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
