/*
 * test_bench_battery.c - the file-server benchmarks' operations
 * (bench_ncp.h, work_ncp.c) run through the harness on an in-memory
 * segment in simulated time: a controller, five workstation agents and
 * ipxlab's file server on one loop. Each operation is checked against
 * what the server counted (open/close opens and closes, every shared
 * read reaches the server, the private files are per workstation, the
 * search for a missing name misses), and the barrier: no workstation
 * starts while another is not ready.
 */
#include "cm.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ipxlab/bench_ncp.h"
#include "ipxlab/bench_sim.h"
#include "ipxlab/err.h"
#include "ipxlab/log.h"
#include "ipxlab/ncp_server.h"

#define WS 5

/* The network of bench_sim.h with no profile: 100 us per frame. */
struct world {
	struct ipx_bsim *sim;
	struct ipx_loop *loop;
	struct ipx_hctl *ctl;
	struct ncp_server *srv;
	struct ipx_node *ws[WS];
	struct ipx_bn_run_opts o;
	const char *root;
};

static struct world *world_new(void)
{
	struct world *w = calloc(1, sizeof(*w));
	struct ipx_bsim_opts so = { .stations = WS, .seed = 1,
				    .delay = 100 };
	char err[300] = "";

	assert_non_null(w);
	if (ipx_bsim_new(&so, &w->sim, err, sizeof(err)) != IPX_OK)
		fail_msg("sim: %s", err);
	w->loop = ipx_bsim_loop(w->sim);
	w->ctl = ipx_bsim_ctl(w->sim);
	w->srv = ipx_bsim_server(w->sim);
	w->root = ipx_bsim_root(w->sim);
	w->o = *ipx_bsim_run_opts(w->sim);
	for (unsigned i = 0; i < WS; i++)
		w->ws[i] = ipx_bsim_station(w->sim, i);
	return w;
}

static void world_free(struct world *w)
{
	ipx_bsim_free(w->sim);
	free(w);
}

static struct ipx_bw_result res[WS];

/* 'op' on n workstations, count operations each; asserts success. */
static void run_ok(struct world *w, enum ipx_bn_op op, size_t n,
		   uint32_t count, size_t size)
{
	char err[400] = "";

	if (ipx_bn_run(w->ctl, &w->o, op, n, 0, count, size, 1, res, err,
		       sizeof(err)) != IPX_OK)
		fail_msg("%s: %s", ipx_bn_op_name(op), err);
	for (size_t i = 0; i < n; i++) {
		assert_int_equal(res[i].kind, IPX_BW_NCP);
		assert_int_equal(res[i].sent, count);
		assert_true(res[i].seconds > 0);
		assert_true(res[i].bytes > 0);	/* traffic on its link */
	}
}

static uint64_t fn(struct world *w, uint8_t f)
{
	return ncp_server_stats(w->srv)->by_function[f];
}

static void open_close_opens_and_closes(void **state)
{
	struct world *w = world_new();
	uint64_t o0 = fn(w, 0x4C), c0 = fn(w, 0x42);

	(void)state;
	run_ok(w, IPX_BN_OPEN_MULTI, 1, 40, 0);
	assert_int_equal(fn(w, 0x4C) - o0, 40);
	assert_int_equal(fn(w, 0x42) - c0, 40);
	run_ok(w, IPX_BN_OPEN_SINGLE, 2, 25, 0);
	assert_int_equal(fn(w, 0x4C) - o0, 90);
	assert_int_equal(fn(w, 0x42) - c0, 90);
	assert_int_equal(ncp_server_open_files(w->srv), 0);
	world_free(w);
}

static void multi_directory_paths_reach_every_level(void **state)
{
	char path[128];
	unsigned depth_seen = 0;

	(void)state;
	for (uint32_t pick = 0; pick < 64; pick++) {
		unsigned seps = 0;

		ipx_bn_path_open(true, pick, path, sizeof(path));
		for (const char *p = path; *p; p++)
			seps += *p == '\\';
		/* BATTERY\D?\...\F?.DAT: 1 to 4 levels below the top */
		assert_true(seps >= 2 && seps <= 5);
		depth_seen |= 1u << (seps - 2);
	}
	assert_int_equal(depth_seen, 0xF);
	ipx_bn_path_open(false, 17, path, sizeof(path));
	assert_string_equal(path, "BATTERY\\F01.DAT");
}

static void shared_reads_reach_the_server_every_time(void **state)
{
	struct world *w = world_new();
	const struct ncp_server_stats *s = ncp_server_stats(w->srv);
	uint64_t r0 = fn(w, 0x48), b0 = s->bytes_read;

	(void)state;
	run_ok(w, IPX_BN_SHARED_SMALL, 3, 50, 0);
	assert_int_equal(fn(w, 0x48) - r0, 150);
	assert_int_equal(s->bytes_read - b0, 150);
	run_ok(w, IPX_BN_SHARED_LARGE, 1, 30, 0);
	assert_int_equal(fn(w, 0x48) - r0, 180);
	assert_int_equal(s->bytes_read - b0, 180);
	b0 = s->bytes_read;
	run_ok(w, IPX_BN_BLOCK, 2, 5, 0);
	assert_int_equal(s->bytes_read - b0, 2 * 5 * IPX_BN_BLOCK_SIZE);
	world_free(w);
}

static void private_files_are_per_workstation(void **state)
{
	struct world *w = world_new();
	const struct ncp_server_stats *s = ncp_server_stats(w->srv);
	char rel[64], path[200], err[400] = "";
	uint64_t b0 = s->bytes_read;

	(void)state;
	run_ok(w, IPX_BN_PRIV_RANDOM, 2, 20, 0);
	run_ok(w, IPX_BN_PRIV_SEQ, 2, 20, 0);
	assert_int_equal(s->bytes_read - b0, 4 * 20 * IPX_BN_PRIV_RECORD);
	/* without workstation 2's file, workstation 2 fails, naming it,
	 * while workstation 1 alone still runs */
	ipx_bn_path_private(2, rel, sizeof(rel));
	assert_string_equal(rel, "BATTERY\\PRIV02.DAT");
	snprintf(path, sizeof(path), "%s/BATTERY/PRIV02.DAT", w->root);
	assert_int_equal(unlink(path), 0);
	assert_int_not_equal(ipx_bn_run(w->ctl, &w->o, IPX_BN_PRIV_RANDOM, 2,
					0, 10, 0, 1, res, err, sizeof(err)),
			     IPX_OK);
	if (!strstr(err, "ws2") || !strstr(err, "PRIV02"))
		fail_msg("error '%s' does not name ws2 and PRIV02", err);
	run_ok(w, IPX_BN_PRIV_RANDOM, 1, 10, 0);
	world_free(w);
}

static void random_search_misses_missing_names(void **state)
{
	struct world *w = world_new();

	(void)state;
	run_ok(w, IPX_BN_RANDOM_SEARCH, 2, 90, 0);
	for (int i = 0; i < 2; i++) {
		/* F4 and F5 do not exist: about a third miss, and only those */
		assert_true(res[i].delivered > 10);
		assert_true(res[i].delivered < 60);
	}
	world_free(w);
}

static void directory_search_is_one_request_per_entry(void **state)
{
	struct world *w = world_new();
	uint64_t i0 = fn(w, 0x3E), s0 = fn(w, 0x3F);

	(void)state;
	/* the top directory has 16 + 2 + 2 + 5 + 1 + 7 = 33 entries: 40
	 * operations are one whole listing (33 + the one finding no more)
	 * and 6 requests of a second */
	run_ok(w, IPX_BN_DIR_SEARCH, 1, 40, 0);
	assert_int_equal(fn(w, 0x3F) - s0, 40);
	assert_int_equal(fn(w, 0x3E) - i0, 2);
	world_free(w);
}

static void create_and_lock_do_what_they_say(void **state)
{
	struct world *w = world_new();
	char tmp[200];
	uint64_t c0 = fn(w, 0x43), e0 = fn(w, 0x44), l0 = fn(w, 0x1A),
		 u0 = fn(w, 0x1E);
	uint64_t wr0 = ncp_server_stats(w->srv)->bytes_written;

	(void)state;
	run_ok(w, IPX_BN_CREATE, 2, 10, 0);
	assert_int_equal(fn(w, 0x43) - c0, 20);
	/* each erase once per operation, plus one of a leftover at set-up */
	assert_int_equal(fn(w, 0x44) - e0, 22);
	assert_int_equal(ncp_server_stats(w->srv)->bytes_written - wr0,
			 20 * IPX_BN_CREATE_SIZE);
	snprintf(tmp, sizeof(tmp), "%s/BATTERY/TMP", w->root);
	assert_int_equal(rmdir(tmp), 0);	/* empty: every file deleted */
	assert_int_equal(mkdir(tmp, 0755), 0);
	run_ok(w, IPX_BN_LOCK, 5, 30, 0);
	assert_int_equal(fn(w, 0x1A) - l0, 150);
	assert_int_equal(fn(w, 0x1E) - u0, 150);
	assert_int_equal(ncp_server_lock_count(w->srv), 0);
	world_free(w);
}

static void copy_reads_the_whole_file(void **state)
{
	struct world *w = world_new();
	const struct ncp_server_stats *s = ncp_server_stats(w->srv);
	uint64_t b0 = s->bytes_read;

	(void)state;
	run_ok(w, IPX_BN_COPY, 1, 1, 25184);
	assert_int_equal(s->bytes_read - b0, 25184);
	run_ok(w, IPX_BN_PING, 1, 10, 0);
	world_free(w);
}

static void perftest_overlays_one_record(void **state)
{
	struct world *w = world_new();
	const struct ncp_server_stats *s = ncp_server_stats(w->srv);
	uint64_t b0 = s->bytes_written;
	char path[200];
	struct stat st;

	(void)state;
	run_ok(w, IPX_BN_PERFTEST, 2, 20, 0);
	assert_int_equal(s->bytes_written - b0, 2 * 20 * IPX_BN_PERF_RECORD);
	for (int i = 1; i <= 2; i++) {
		/* every record over the previous one: the file stays one long */
		snprintf(path, sizeof(path), "%s/BATTERY/TMP/PERF%02d.DAT",
			 w->root, i);
		assert_int_equal(stat(path, &st), 0);
		assert_int_equal(st.st_size, IPX_BN_PERF_RECORD);
	}
	run_ok(w, IPX_BN_PERFTEST, 1, 5, 512);
	assert_int_equal(s->bytes_written - b0,
			 2 * 20 * IPX_BN_PERF_RECORD + 5 * 512);
	world_free(w);
}

/* get: whole parts of the 4 MB file in buffer-size reads, the next part
 * each time and from 0 again after the end; a ping may carry a buffer. */
static void get_reads_the_next_part_each_time(void **state)
{
	struct world *w = world_new();
	const struct ncp_server_stats *s = ncp_server_stats(w->srv);
	uint64_t b0 = s->bytes_read, r0 = fn(w, 0x48);
	uint32_t parts = IPX_BN_LARGE_SIZE / IPX_BN_GET_PART;

	(void)state;
	run_ok(w, IPX_BN_GET, 1, parts + 2, 0);
	assert_int_equal(s->bytes_read - b0,
			 (uint64_t)(parts + 2) * IPX_BN_GET_PART);
	/* more than one request per part: buffer-size reads */
	assert_true(fn(w, 0x48) - r0 > (parts + 2) * 100);
	run_ok(w, IPX_BN_GET, 1, 3, 1000);
	assert_int_equal(s->bytes_read - b0,
			 (uint64_t)(parts + 2) * IPX_BN_GET_PART + 3000);
	run_ok(w, IPX_BN_PING, 1, 4, 1400);
	assert_true(res[0].bytes > 4 * 2 * 1400);
	world_free(w);
}

static void time_mode_and_the_barrier(void **state)
{
	struct world *w = world_new();
	struct ipx_hctl_span span = { 0, 0 };
	char path[200], err[400] = "";
	uint64_t r0;

	(void)state;
	w->o.span = &span;
	if (ipx_bn_run(w->ctl, &w->o, IPX_BN_SHARED_SMALL, WS, 0.2, 0, 0, 1,
		       res, err, sizeof(err)) != IPX_OK)
		fail_msg("%s", err);
	for (int i = 0; i < WS; i++) {
		assert_true(res[i].sent > 10);
		/* each ran the time asked, within an operation */
		assert_true(res[i].seconds >= 0.2 && res[i].seconds < 0.25);
	}
	/* the run's span (the analyzer's window): from before the GO to the
	 * last RESULT, so it holds every workstation's 0.2 s */
	assert_true(span.go > 0);
	assert_true(span.results - span.go >= 200 * IPX_MSEC);
	assert_true(span.results - span.go < 300 * IPX_MSEC);
	w->o.span = NULL;
	/* one workstation cannot get ready (its file is gone): nobody
	 * starts, so the server sees not a single read */
	snprintf(path, sizeof(path), "%s/BATTERY/PRIV05.DAT", w->root);
	assert_int_equal(unlink(path), 0);
	r0 = fn(w, 0x48);
	assert_int_not_equal(ipx_bn_run(w->ctl, &w->o, IPX_BN_PRIV_RANDOM, WS,
					0.2, 0, 0, 1, res, err, sizeof(err)),
			     IPX_OK);
	assert_non_null(strstr(err, "ws5"));
	assert_int_equal(fn(w, 0x48), r0);
	world_free(w);
}

/* ---- a workload freed while its NCP call runs the loop ---- */

static struct ipx_bw *victim;
static unsigned victim_events;

static void on_victim(struct ipx_bw *bw, enum ipx_bw_event ev, void *ctx)
{
	(void)bw;
	(void)ctx;
	victim_events |= 1u << ev;
	if (ev == IPX_BW_READY)
		assert_int_equal(ipx_bw_go(victim), IPX_OK);
}

static void free_victim(struct ipx_loop *loop, struct ipx_timer *t,
			void *ctx)
{
	(void)loop;
	(void)t;
	(void)ctx;
	ipx_bw_free(victim);	/* as the agent does on QUIT */
	victim = NULL;
}

static void freed_during_a_call_is_freed_after_it(void **state)
{
	struct world *w = world_new();
	struct ipx_bw_params p = { .kind = IPX_BW_NCP, .seconds = 5,
				   .op = IPX_BN_OPEN_MULTI, .station = 1 };
	struct ipx_timer t;
	char err[300] = "";
	uint64_t o0 = fn(w, 0x4C);

	(void)state;
	p.peer.addr = w->o.server;
	victim_events = 0;
	if (ipx_bw_new(w->ws[0], w->loop, IPX_BW_SENDER, &p, on_victim, NULL,
		       &victim, err, sizeof(err)) != IPX_OK)
		fail_msg("%s", err);
	/* operations run back to back, each inside the loop: the timer
	 * fires during one of them */
	ipx_timer_init(&t, free_victim, NULL);
	ipx_timer_start(w->loop, &t, 200 * IPX_MSEC, 0);
	ipx_loop_run_for(w->loop, IPX_SEC);
	assert_null(victim);
	assert_true(victim_events & (1u << IPX_BW_READY));
	assert_false(victim_events & (1u << IPX_BW_DONE));
	assert_true(fn(w, 0x4C) - o0 > 10);
	/* nothing of it runs any more */
	o0 = fn(w, 0x4C);
	ipx_loop_run_for(w->loop, IPX_SEC);
	assert_int_equal(fn(w, 0x4C), o0);
	world_free(w);
}

static void op_names_round_trip(void **state)
{
	enum ipx_bn_op op;
	double l, b;

	(void)state;
	for (int i = 0; i < IPX_BN_OPS; i++) {
		assert_int_equal(ipx_bn_op_parse(ipx_bn_op_name(i), &op),
				 IPX_OK);
		assert_int_equal(op, i);
	}
	assert_int_equal(ipx_bn_op_parse("nope", &op), IPX_EINVAL);
	assert_true(ipx_bn_op_seconds(IPX_BN_DIR_SEARCH) == 10);
	assert_true(ipx_bn_op_seconds(IPX_BN_LOCK) == 20);
	ipx_bn_published_kbs(IPX_BN_BLOCK, &l, &b);
	assert_true(l == 192 && b == 40);
	assert_int_equal(ipx_bn_op_requests(IPX_BN_SHARED_SMALL), 1);
	assert_int_equal(ipx_bn_op_requests(IPX_BN_LOCK), 2);
	assert_int_equal(ipx_bn_op_requests(IPX_BN_CREATE), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(op_names_round_trip),
		cmocka_unit_test(multi_directory_paths_reach_every_level),
		cmocka_unit_test(open_close_opens_and_closes),
		cmocka_unit_test(shared_reads_reach_the_server_every_time),
		cmocka_unit_test(private_files_are_per_workstation),
		cmocka_unit_test(random_search_misses_missing_names),
		cmocka_unit_test(directory_search_is_one_request_per_entry),
		cmocka_unit_test(create_and_lock_do_what_they_say),
		cmocka_unit_test(copy_reads_the_whole_file),
		cmocka_unit_test(perftest_overlays_one_record),
		cmocka_unit_test(get_reads_the_next_part_each_time),
		cmocka_unit_test(time_mode_and_the_barrier),
		cmocka_unit_test(freed_during_a_call_is_freed_after_it),
	};

	ipx_log_set_level(IPX_LOG_ERROR);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
