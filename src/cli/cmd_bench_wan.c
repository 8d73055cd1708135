/*
 * cmd_bench_wan.c - "ipxlab bench wan": B6, the bridged network of 1990
 * (docs/benchmarks.md). Two segments: the workstations' hub (with a file
 * server on it: the local case) and, across `ipxlab bridge` with the isn
 * profile, a hub the bridge serves with a second file server on the same
 * volume (the bridged case), all child processes of this one. Three
 * parts: the battery with and without the bridge, the throughput-limit
 * search (bench_wan.h) and the workstation scaling curve of open/close.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "fsbench.h"
#include "ipxlab/bench_wan.h"
#include "ipxlab/err.h"
#include "ipxlab/link_profile.h"
#include "ipxlab/log.h"

#define CMD "bench"
#define MAX_SETS 8
#define QUICK_SECONDS 1.0
#define FAR_BUFFER "512"	/* the bridged server's --max-buffer */

enum {
	OPT_SECONDS = FSB_OPT_FIRST,
	OPT_STATIONS,
	OPT_ONLY,
	OPT_QUICK,
	OPT_PARTS,
	OPT_MAXST,
	OPT_WANPROF,
	OPT_STEP,
	OPT_MAXLOAD,
	OPT_DEADLINE,
	OPT_FILE,
	OPT_PROBES,
};

enum { PART_BATTERY = 1, PART_LIMIT = 2, PART_SCALING = 4 };

void help_bench_wan(FILE *out)
{
	fprintf(out,
		"usage: ipxlab bench wan [options]\n\n"
		"B6, the bridged network of 1990: workstations on one segment, the\n"
		"file server on another, joined by 'ipxlab bridge' (profile isn:\n"
		"950 kbit/s each way, 182 KB receive and 192 KB transmit buffers,\n"
		"the hold timer, 576-byte IPX packets), all started here; a second\n"
		"server on the workstations' own segment is the local case. Parts:\n"
		"  battery  the B2 tests with and without the bridge: ops/s per\n"
		"           workstation, bridged as a percentage of local, and the\n"
		"           1990 peak Kbyte/s (local | bridged) beside\n"
		"  limit    a paced load of 576-byte IPX packets from the server's\n"
		"           segment to the workstations', raised by --load-step\n"
		"           from none; at each load a workstation copies a file\n"
		"           from the bridged server; the search stops at the first\n"
		"           load whose copy fails or misses its deadline and\n"
		"           reports the last that completed, beside ~950 kbit/s\n"
		"  scaling  open/close (multiple directories) ops/s per\n"
		"           workstation for 1..N workstations, with and without\n"
		"           the bridge\n\n"
		"  -s, --seconds S     per battery test and scaling point instead of\n"
		"                      20 (battery searches: half)\n"
		"      --quick         under a minute in all: %.0f s per test, the\n"
		"                      battery's open-multi and lock with 1\n"
		"                      workstation, scaling 1..3, the limit with\n"
		"                      the 1,205-byte file at 0, 700, 1400 kbit/s\n"
		"      --parts LIST    battery,limit,scaling (default: all three)\n"
		"      --stations LIST battery workstation counts (default 1,5)\n"
		"      --only OPS      battery tests (see 'bench battery --help')\n"
		"      --max-stations N  scaling from 1 to N (default 8; 1 to %d)\n"
		"      --wan-profile NAME|FILE  the bridge's profile (default isn)\n"
		"      --load-step KBIT  limit: load added per step (default 100)\n"
		"      --max-load KBIT   limit: the highest load tried (default\n"
		"                      2000)\n"
		"      --deadline S    limit: seconds a copy may take (default:\n"
		"                      twice the copy's time with no load)\n"
		"      --file BYTES    limit: the file copied, one of the B3 sizes\n"
		"                      (default 25184)\n"
		"      --probes N      limit: workstations copying at once (default\n"
		"                      1)\n"
		"      --fixtures DIR  write the fixtures into DIR and exit\n"
		"      --wait S        for the hubs, bridge, agents and servers\n"
		"                      (default 10)\n"
		"      --json, --csv   machine-readable output instead of the table\n"
		"  -q, --quiet         no progress line; -v, --verbose more log lines\n",
		QUICK_SECONDS, IPX_BN_MAX_STATIONS);
}

struct wan {
	struct fsbench b;
	/* options */
	double seconds;		/* 0: the 1990 times */
	unsigned parts;
	unsigned sets[MAX_SETS];
	size_t nsets;
	bool only[IPX_BN_BATTERY_OPS];
	unsigned max_stations;
	const char *wan_profile;
	struct ipx_profile prof;
	struct ipx_bwan_limit_opts lo;
	uint64_t max_load;
	/* the far side */
	int far_port;
	char far_hub[32], far_name[48], far_spec[120];
	pid_t bridge, far_srv;
	struct ipx_node *far_node;	/* the load's source, on the far hub */
	struct ipx_bwan_flood *flood;
	struct ipx_bn_run_opts far;
	/* results */
	struct ipx_bwan_point bat[2][MAX_SETS][IPX_BN_BATTERY_OPS];
	struct ipx_bwan_step steps[IPX_BWAN_MAX_STEPS];
	size_t nsteps;
	struct ipx_bwan_point scale[2][IPX_BN_MAX_STATIONS];
	/* progress */
	unsigned done, total;
	const char *phase;	/* "scaling, bridged: " before the loop's */
};

static double test_seconds(const struct wan *t, enum ipx_bn_op op)
{
	double s = ipx_bn_op_seconds(op);

	return t->seconds > 0 ? t->seconds * s / 20 : s;
}

static double scale_seconds(const struct wan *t)
{
	return t->seconds > 0 ? t->seconds : 20;
}

static void progress(void *ctx, const char *what, unsigned k, unsigned n,
		     double secs)
{
	struct wan *t = ctx;

	(void)k;
	(void)n;
	t->done++;
	if (!t->b.progress)
		return;
	fprintf(stderr, "\r\033[K  wan %u/%u: %s%s", t->done, t->total,
		t->phase ? t->phase : "", what);
	if (secs > 0)
		fprintf(stderr, ", %.1f s", secs);
	fflush(stderr);
}

static int parse_parts(struct wan *t, const char *arg)
{
	char *copy = strdup(arg), *save = NULL, *tok;

	t->parts = 0;
	for (tok = copy ? strtok_r(copy, ",", &save) : NULL; tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (!strcmp(tok, "battery"))
			t->parts |= PART_BATTERY;
		else if (!strcmp(tok, "limit"))
			t->parts |= PART_LIMIT;
		else if (!strcmp(tok, "scaling"))
			t->parts |= PART_SCALING;
		else {
			cli_error(CMD, "--parts: unknown part '%s' (battery, "
				       "limit, scaling)",
				  tok);
			free(copy);
			return -1;
		}
	}
	free(copy);
	if (!t->parts) {
		cli_error(CMD, "--parts needs battery, limit or scaling");
		return -1;
	}
	return 0;
}

static int parse_kbit(const char *opt, const char *arg, uint64_t *out)
{
	unsigned long v;

	if (cli_parse_uint(CMD, opt, arg, 1, 100000, &v) < 0)
		return -1;
	*out = (uint64_t)v * 1000;
	return 0;
}

/* ---- the far side: the bridge, its hub, the server there ---- */

static int start_far(struct fsbench *b)
{
	struct wan *t = (struct wan *)b;	/* b is its first member */
	char tunnel[80], hub[48], err[768];
	/* the profile as given: a name, or a file the child reads too */
	char *bargv[] = { "ipxlab",	  "bridge", hub, tunnel, "--profile",
			  (char *)t->wan_profile, "-q", NULL };
	char *sargv[] = { "ipxlab", "server", "--hub", t->far_hub, "--name",
			  t->far_name, "--volume", t->far_spec, "--max-buffer",
			  FAR_BUFFER, "-q", NULL };
	struct sockaddr_in sa = { .sin_family = AF_INET };
	struct ipx_config cfg;
	int rc;

	t->far_port = cli_free_udp_port();
	if (!t->far_port) {
		cli_error(CMD, "wan: no free UDP port for the far hub");
		return CLI_FAIL;
	}
	snprintf(t->far_hub, sizeof(t->far_hub), "127.0.0.1:%d", t->far_port);
	snprintf(hub, sizeof(hub), "hub:%s", t->far_hub);
	snprintf(tunnel, sizeof(tunnel), "tunnel:%s", t->b.hubtext);
	t->bridge = cli_spawn_self(bargv);
	snprintf(t->far_name, sizeof(t->far_name), "WANFAR-%d", (int)getpid());
	snprintf(t->far_spec, sizeof(t->far_spec), "SYS=%s", t->b.dir);
	t->far_srv = t->bridge > 0 ? cli_spawn_self(sargv) : -1;
	if (t->bridge < 0 || t->far_srv < 0) {
		cli_error(CMD, "wan: cannot start the bridge or the far "
			       "server: %s",
			  strerror(errno));
		return CLI_FAIL;
	}
	/* the load's source: a node of ours on the far hub */
	sa.sin_port = htons((uint16_t)t->far_port);
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	ipx_config_defaults(&cfg);
	rc = ipx_hnet_join_on(t->b.loop, &sa, &cfg,
			      (ipx_time)(t->b.wait * IPX_SEC), &t->far_node,
			      err, sizeof(err));
	if (rc != IPX_OK) {
		cli_error(CMD, "wan: the bridge's hub at %s: %s", t->far_hub,
			  err);
		return CLI_FAIL;
	}
	rc = ipx_bwan_flood_new(t->far_node, t->b.node, &t->flood);
	if (rc != IPX_OK) {
		cli_error(CMD, "wan: the load's sockets: %s",
			  ipx_strerror(rc));
		return CLI_FAIL;
	}
	t->far = t->b.ro;
	return fsbench_find_server(&t->b, t->far_name, &t->far.server);
}

static void stop_far(struct wan *t)
{
	ipx_bwan_flood_free(t->flood);
	t->flood = NULL;
	ipx_node_free(t->far_node);
	t->far_node = NULL;
	cli_stop_child(&t->far_srv);
	cli_stop_child(&t->bridge);
}

/* ---- the parts ---- */

static int run_battery(struct wan *t, char *err, size_t errlen)
{
	struct ipx_bw_result *res = calloc(IPX_BN_MAX_STATIONS, sizeof(*res));
	char what[96];
	int rc = IPX_OK;

	if (!res) {
		snprintf(err, errlen, "out of memory");
		return IPX_ENOMEM;
	}
	for (size_t s = 0; s < t->nsets && rc == IPX_OK; s++)
		for (int op = 0; op < IPX_BN_BATTERY_OPS && rc == IPX_OK;
		     op++)
			for (int side = 0; side < 2 && t->only[op] &&
					   rc == IPX_OK;
			     side++) {
				snprintf(what, sizeof(what), "battery %s, %u "
							     "ws, %s",
					 ipx_bn_op_name(op), t->sets[s],
					 side ? "bridged" : "local");
				progress(t, what, 0, 0, test_seconds(t, op));
				rc = ipx_bn_run(t->b.ctl,
						side ? &t->far : &t->b.ro, op,
						t->sets[s], test_seconds(t, op),
						0, 0, (uint16_t)t->done, res,
						err, errlen);
				if (rc == IPX_OK)
					ipx_bwan_summarize(res, t->sets[s],
							   &t->bat[side][s][op]);
			}
	free(res);
	return rc;
}

static int run_parts(struct wan *t)
{
	char err[768];
	int rc = IPX_OK;
	const char *part = "battery";

	if (t->parts & PART_BATTERY)
		rc = run_battery(t, err, sizeof(err));
	if (rc == IPX_OK && (t->parts & PART_LIMIT)) {
		part = "limit";
		t->lo.run = t->far;
		t->lo.progress = progress;
		t->lo.ctx = t;
		rc = ipx_bwan_limit(t->b.ctl, t->flood, &t->lo, t->steps,
				    &t->nsteps, err, sizeof(err));
	}
	for (int side = 0; side < 2 && rc == IPX_OK &&
			   (t->parts & PART_SCALING);
	     side++) {
		part = "scaling";
		t->phase = side ? "scaling, bridged: " : "scaling, local: ";
		rc = ipx_bwan_scale(t->b.ctl, side ? &t->far : &t->b.ro,
				    IPX_BN_OPEN_MULTI, t->max_stations,
				    scale_seconds(t), progress, t,
				    t->scale[side], err, sizeof(err));
	}
	if (t->b.progress)
		fprintf(stderr, "\r\033[K");
	if (rc != IPX_OK) {
		cli_error(CMD, "wan: %s: %s", part, err);
		return CLI_FAIL;
	}
	return CLI_OK;
}

/* ---- the figures ---- */

static double pct(double part, double whole)
{
	return whole > 0 ? 100 * part / whole : 0;
}

/* The mean over the tests run of bridged/local wire traffic, for one
 * workstation count. */
static double mean_traffic_pct(const struct wan *t, size_t s)
{
	double sum = 0;
	int n = 0;

	for (int op = 0; op < IPX_BN_BATTERY_OPS; op++)
		if (t->only[op]) {
			sum += pct(t->bat[1][s][op].wire_kbs,
				   t->bat[0][s][op].wire_kbs);
			n++;
		}
	return n ? sum / n : 0;
}

/* The 1990 averages: one bridged workstation about 32 % of a local one's
 * traffic, five about 54 %; none for other counts. */
static double published_pct(unsigned ws)
{
	return ws == 1 ? 32 : ws == 5 ? 54 : 0;
}

static void print_conditions(const struct wan *t, FILE *out)
{
	fsbench_print_conditions(&t->b, out);
	fprintf(out, "# bridge: 'ipxlab bridge', profile %s: %.0f kbit/s each "
		     "way, receive buffer %u bytes, transmit buffer %u, hold "
		     "%.0f ms, IPX packets over %u bytes dropped\n",
		t->prof.name, t->prof.rate / 1000.0, t->prof.rx_buffer,
		t->prof.tx_buffer, t->prof.hold_ns / 1e6, t->prof.bridge_max);
	fprintf(out, "# local server '%s' on the workstations' hub %s; "
		     "bridged server '%s' on the bridge's hub %s "
		     "(--max-buffer " FAR_BUFFER ")\n",
		t->b.srvname, t->b.hubtext, t->far_name, t->far_hub);
}

static void print_battery(const struct wan *t)
{
	printf("\nBattery with and without the bridge (ops/s per "
	       "workstation; KB/s on each workstation's link)\n");
	printf("%-38s %3s %9s %9s %8s %9s %9s %8s  %s\n", "test", "ws",
	       "local", "bridged", "ops %", "KB/s loc", "KB/s br", "traffic%",
	       "1990 peak KB/s local | bridged");
	for (int op = 0; op < IPX_BN_BATTERY_OPS; op++)
		for (size_t s = 0; s < t->nsets && t->only[op]; s++) {
			const struct ipx_bwan_point *l = &t->bat[0][s][op],
						    *b = &t->bat[1][s][op];
			double pl, pb;

			ipx_bn_published_kbs(op, &pl, &pb);
			printf("%-38s %3u %9.1f %9.2f %7.2f%% %9.1f %9.2f "
			       "%7.2f%%  ",
			       s ? "" : ipx_bn_op_title(op), t->sets[s],
			       l->per_ws, b->per_ws, pct(b->per_ws, l->per_ws),
			       l->wire_kbs, b->wire_kbs,
			       pct(b->wire_kbs, l->wire_kbs));
			if (t->sets[s] == 1)
				printf("%5.0f | %.0f\n", pl, pb);
			else
				printf("%5s\n", "-");
		}
	for (size_t s = 0; s < t->nsets; s++) {
		printf("Bridged traffic as a share of local, mean over the "
		       "tests, %u workstation%s: %.2f%%",
		       t->sets[s], t->sets[s] == 1 ? "" : "s",
		       mean_traffic_pct(t, s));
		if (published_pct(t->sets[s]) > 0)
			printf(" (1990: about %.0f%%)",
			       published_pct(t->sets[s]));
		printf("\n");
	}
}

static void print_limit(const struct wan *t)
{
	int k = ipx_bwan_limit_found(t->steps, t->nsteps);

	printf("\nThroughput limit: a paced load of %d-byte IPX packets from "
	       "the server's segment to the workstations', and %zu "
	       "workstation%s copying the %u-byte file from the bridged "
	       "server at each load (%.1f s of load first)\n",
	       IPX_BWAN_FLOOD_SIZE, t->lo.probes ? t->lo.probes : 1,
	       t->lo.probes > 1 ? "s" : "", t->lo.file_size, t->lo.warmup);
	printf("%12s %9s %9s %11s %8s %9s %8s %6s  %s\n", "load kbit/s",
	       "sent", "carried", "copy kbit/s", "copy s", "deadline",
	       "retrans", "result", "");
	for (size_t i = 0; i < t->nsteps; i++) {
		const struct ipx_bwan_step *st = &t->steps[i];

		printf("%12.0f %9.1f %9.1f %11.1f %8.2f %9.2f %8llu %6s  %s\n",
		       st->load_bps / 1000.0, st->load_sent_bps / 1000.0,
		       st->load_carried_bps / 1000.0,
		       st->copy_bps / 1000.0, st->copy_max_s, st->deadline,
		       (unsigned long long)st->retransmits,
		       st->ok ? "ok" : "FAIL", st->ok ? "" : st->why);
	}
	if (k < 0)
		printf("No load completed: the copy failed with no load.\n");
	else if ((size_t)k + 1 == t->nsteps)
		printf("Every load tried completed; the last: %.0f kbit/s "
		       "offered, %.1f carried (raise --max-load).\n",
		       t->steps[k].load_bps / 1000.0,
		       t->steps[k].load_carried_bps / 1000.0);
	else
		printf("Last load that completed: %.0f kbit/s offered, %.1f "
		       "carried, plus the copy's %.1f kbit/s.\n",
		       t->steps[k].load_bps / 1000.0,
		       t->steps[k].load_carried_bps / 1000.0,
		       t->steps[k].copy_bps / 1000.0);
	printf("1990: about 950 kbit/s each way (1.9 Mbit/s in all), above "
	       "which packets were discarded or transfers timed out; "
	       "planning figure 1.5-1.7 Mbit/s. Load and carried count IPX "
	       "bytes; the trunk adds the %u-byte link header to each.\n",
	       t->prof.header);
}

static void print_scaling(const struct wan *t)
{
	printf("\nScaling: open/close file, multiple directories, ops/s per "
	       "workstation (%.1f s each)\n",
	       scale_seconds(t));
	printf("%3s %10s %10s %9s %12s %12s\n", "ws", "local", "bridged",
	       "bridged%", "total local", "total br");
	for (unsigned n = 0; n < t->max_stations; n++) {
		const struct ipx_bwan_point *l = &t->scale[0][n],
					    *b = &t->scale[1][n];

		printf("%3u %10.1f %10.2f %8.2f%% %12.1f %12.2f\n", n + 1,
		       l->per_ws, b->per_ws, pct(b->per_ws, l->per_ws),
		       l->total, b->total);
	}
	printf("1990: one workstation alone saw worse response than five; "
	       "per-workstation performance rose as workstations were "
	       "added, up to saturation (no figures published).\n");
}

static void print_table(const struct wan *t)
{
	printf("B6 bridged network: NCP over IPX, workstations and file "
	       "server on two segments joined by the WAN bridge\n");
	print_conditions(t, stdout);
	if (t->parts & PART_BATTERY)
		print_battery(t);
	if (t->parts & PART_LIMIT)
		print_limit(t);
	if (t->parts & PART_SCALING)
		print_scaling(t);
}

static void json_point(const char *key, const struct ipx_bwan_point *p)
{
	printf("\"%s\":{\"ops\":%llu,\"active\":%u,\"ops_per_s_per_ws\":%.4f,"
	       "\"min\":%.4f,\"max\":%.4f,\"total_ops_per_s\":%.4f,"
	       "\"wire_kbytes_per_s\":%.4f,\"retransmits\":%llu}",
	       key, (unsigned long long)p->ops, p->active, p->per_ws, p->min,
	       p->max, p->total, p->wire_kbs,
	       (unsigned long long)p->retransmits);
}

static void print_json(const struct wan *t)
{
	bool first = true;

	printf("{\"benchmark\":\"wan\",\"conditions\":{");
	fsbench_json_conditions(&t->b, stdout);
	printf(",\"wan_profile\":");
	fsbench_json_str(stdout, t->prof.name);
	printf(",\"trunk_bps\":%llu,\"rx_buffer\":%u,\"tx_buffer\":%u,"
	       "\"hold_ms\":%.3f,\"bridge_max\":%u,\"far_hub\":",
	       (unsigned long long)t->prof.rate, t->prof.rx_buffer,
	       t->prof.tx_buffer, t->prof.hold_ns / 1e6, t->prof.bridge_max);
	fsbench_json_str(stdout, t->far_hub);
	printf(",\"far_server\":");
	fsbench_json_str(stdout, t->far_name);
	printf(",\"far_max_buffer\":" FAR_BUFFER "}");
	if (t->parts & PART_BATTERY) {
		printf(",\"battery\":[");
		for (int op = 0; op < IPX_BN_BATTERY_OPS; op++)
			for (size_t s = 0; s < t->nsets && t->only[op]; s++) {
				double pl, pb;

				ipx_bn_published_kbs(op, &pl, &pb);
				printf("%s{\"test\":\"%s\",\"seconds\":%.3f,"
				       "\"workstations\":%u,",
				       first ? "" : ",", ipx_bn_op_name(op),
				       test_seconds(t, op), t->sets[s]);
				first = false;
				json_point("local", &t->bat[0][s][op]);
				printf(",");
				json_point("bridged", &t->bat[1][s][op]);
				printf(",\"ops_pct\":%.4f,\"traffic_pct\":%.4f",
				       pct(t->bat[1][s][op].per_ws,
					   t->bat[0][s][op].per_ws),
				       pct(t->bat[1][s][op].wire_kbs,
					   t->bat[0][s][op].wire_kbs));
				if (t->sets[s] == 1)
					printf(",\"published_peak_kbytes_per_s"
					       "\":{\"local\":%.0f,\"bridged\":"
					       "%.0f}",
					       pl, pb);
				printf("}");
			}
		printf("],\"traffic_pct_mean\":[");
		for (size_t s = 0; s < t->nsets; s++) {
			printf("%s{\"workstations\":%u,\"pct\":%.4f",
			       s ? "," : "", t->sets[s],
			       mean_traffic_pct(t, s));
			if (published_pct(t->sets[s]) > 0)
				printf(",\"published_pct\":%.0f",
				       published_pct(t->sets[s]));
			printf("}");
		}
		printf("]");
	}
	if (t->parts & PART_LIMIT) {
		int k = ipx_bwan_limit_found(t->steps, t->nsteps);

		printf(",\"limit\":{\"packet_bytes\":%d,\"file_bytes\":%u,"
		       "\"probes\":%zu,\"warmup_s\":%.3f,\"steps\":[",
		       IPX_BWAN_FLOOD_SIZE, t->lo.file_size,
		       t->lo.probes ? t->lo.probes : 1, t->lo.warmup);
		for (size_t i = 0; i < t->nsteps; i++) {
			const struct ipx_bwan_step *st = &t->steps[i];

			printf("%s{\"load_bps\":%llu,\"sent_bps\":%.1f,"
			       "\"carried_bps\":%.1f,"
			       "\"copy_bps\":%.1f,\"copy_max_s\":%.4f,"
			       "\"copy_mean_s\":%.4f,\"deadline_s\":%.4f,"
			       "\"copies\":%llu,\"retransmits\":%llu,\"ok\":%s,"
			       "\"why\":",
			       i ? "," : "", (unsigned long long)st->load_bps,
			       st->load_sent_bps, st->load_carried_bps,
			       st->copy_bps,
			       st->copy_max_s, st->copy_mean_s, st->deadline,
			       (unsigned long long)st->copies,
			       (unsigned long long)st->retransmits,
			       st->ok ? "true" : "false");
			fsbench_json_str(stdout, st->why);
			printf("}");
		}
		printf("],\"last_completed\":");
		if (k < 0)
			printf("null");
		else
			printf("{\"step\":%d,\"load_bps\":%llu,\"carried_bps\":"
			       "%.1f}",
			       k, (unsigned long long)t->steps[k].load_bps,
			       t->steps[k].load_carried_bps);
		printf(",\"limit_found\":%s,\"published\":{\"trunk_bps_each_"
		       "way\":950000,\"planning_bps\":[1500000,1700000]}}",
		       k >= 0 && (size_t)k + 1 < t->nsteps ? "true" : "false");
	}
	if (t->parts & PART_SCALING) {
		printf(",\"scaling\":{\"test\":\"open-multi\",\"seconds\":%.3f,"
		       "\"points\":[",
		       scale_seconds(t));
		for (unsigned n = 0; n < t->max_stations; n++) {
			printf("%s{\"workstations\":%u,", n ? "," : "", n + 1);
			json_point("local", &t->scale[0][n]);
			printf(",");
			json_point("bridged", &t->scale[1][n]);
			printf("}");
		}
		printf("]}");
	}
	printf("}\n");
}

static void csv_point(const char *part, const char *test, unsigned ws,
		      const char *side, const struct ipx_bwan_point *p)
{
	printf("%s,%s,%u,%s,%.4f,%.4f,%.4f,,,,,,\n", part, test, ws, side,
	       p->per_ws, p->total, p->wire_kbs);
}

static void print_csv(const struct wan *t)
{
	printf("part,test,workstations,side,ops_per_s_per_ws,total_ops_per_s,"
	       "wire_kbytes_per_s,load_kbps,sent_kbps,carried_kbps,copy_kbps,"
	       "copy_max_s,ok\n");
	for (int op = 0; op < IPX_BN_BATTERY_OPS && (t->parts & PART_BATTERY);
	     op++)
		for (size_t s = 0; s < t->nsets && t->only[op]; s++)
			for (int side = 0; side < 2; side++)
				csv_point("battery", ipx_bn_op_name(op),
					  t->sets[s],
					  side ? "bridged" : "local",
					  &t->bat[side][s][op]);
	for (size_t i = 0; i < t->nsteps && (t->parts & PART_LIMIT); i++) {
		const struct ipx_bwan_step *st = &t->steps[i];

		printf("limit,copy,%zu,bridged,,,,%.1f,%.1f,%.1f,%.1f,%.4f,%d\n",
		       t->lo.probes ? t->lo.probes : 1, st->load_bps / 1000.0,
		       st->load_sent_bps / 1000.0,
		       st->load_carried_bps / 1000.0, st->copy_bps / 1000.0,
		       st->copy_max_s, st->ok);
	}
	for (unsigned n = 0; n < t->max_stations && (t->parts & PART_SCALING);
	     n++)
		for (int side = 0; side < 2; side++)
			csv_point("scaling", "open-multi", n + 1,
				  side ? "bridged" : "local",
				  &t->scale[side][n]);
}

/* ---- options ---- */

static int parse_own(struct wan *t, int opt, const char *arg, bool *quick,
		     bool *secs_given)
{
	unsigned long v;
	double d;

	switch (opt) {
	case 's':
		if (cli_parse_seconds(CMD, "--seconds", arg, 0.1, 3600,
				      &t->seconds) < 0)
			return -1;
		*secs_given = true;
		return 1;
	case OPT_QUICK:
		*quick = true;
		return 1;
	case OPT_PARTS:
		return parse_parts(t, arg) < 0 ? -1 : 1;
	case OPT_STATIONS:
		return fsbench_parse_counts("--stations", arg, t->sets,
					    MAX_SETS, &t->nsets) < 0
			       ? -1
			       : 1;
	case OPT_ONLY:
		return fsbench_parse_ops(arg, t->only) < 0 ? -1 : 1;
	case OPT_MAXST:
		if (cli_parse_uint(CMD, "--max-stations", arg, 1,
				   IPX_BN_MAX_STATIONS, &v) < 0)
			return -1;
		t->max_stations = (unsigned)v;
		return 1;
	case OPT_WANPROF:
		t->wan_profile = arg;
		return 1;
	case OPT_STEP:
		return parse_kbit("--load-step", arg, &t->lo.step_bps) < 0 ? -1
									   : 1;
	case OPT_MAXLOAD:
		return parse_kbit("--max-load", arg, &t->max_load) < 0 ? -1 : 1;
	case OPT_DEADLINE:
		if (cli_parse_seconds(CMD, "--deadline", arg, 0.01, 3600, &d) <
		    0)
			return -1;
		t->lo.deadline = d;
		return 1;
	case OPT_FILE:
		if (cli_parse_uint(CMD, "--file", arg, 1, UINT32_MAX, &v) < 0)
			return -1;
		for (int i = 0; i < IPX_BN_COPY_SIZES; i++)
			if (ipx_bn_copy_size[i] == v) {
				t->lo.file_size = (uint32_t)v;
				return 1;
			}
		cli_error(CMD, "--file: %lu is not one of the copy test's "
			       "sizes (1205, 5079, 10752, 25184, 50176, "
			       "108048, 214705)",
			  v);
		return -1;
	case OPT_PROBES:
		if (cli_parse_uint(CMD, "--probes", arg, 1, IPX_BN_MAX_STATIONS,
				   &v) < 0)
			return -1;
		t->lo.probes = v;
		return 1;
	default:
		return 0;
	}
}

/* --quick: what the user did not set, small. */
static void apply_quick(struct wan *t, bool stations_given, bool only_given,
			bool max_given, bool file_given, bool step_given,
			bool load_given)
{
	t->seconds = QUICK_SECONDS;
	if (!stations_given) {
		t->sets[0] = 1;
		t->nsets = 1;
	}
	if (!only_given) {
		memset(t->only, 0, sizeof(t->only));
		t->only[IPX_BN_OPEN_MULTI] = true;
		t->only[IPX_BN_LOCK] = true;
	}
	if (!max_given)
		t->max_stations = 3;
	if (!file_given)
		t->lo.file_size = 1205;
	if (!step_given)
		t->lo.step_bps = 700000;
	if (!load_given)
		t->max_load = 1400000;
	/* the copy's own set-up (connect, log in, open: round trips
	 * across the bridge) runs under the load already */
	t->lo.warmup = 0;
	t->lo.drain = 1;
}

static int check(struct wan *t)
{
	char err[300];

	if (t->b.server || t->b.hub) {
		cli_error(CMD, "wan builds its own two segments: --server and "
			       "--hub are not taken");
		return CLI_USAGE;
	}
	if (ipx_profile_resolve(t->wan_profile, &t->prof, err, sizeof(err)) !=
		    IPX_OK ||
	    ipx_profile_check(&t->prof, err, sizeof(err)) != IPX_OK) {
		cli_error(CMD, "--wan-profile: %s", err);
		return CLI_USAGE;
	}
	if (!t->prof.rx_buffer || !t->prof.tx_buffer) {
		cli_error(CMD, "--wan-profile %s has no bridge buffers "
			       "(rx-buffer, tx-buffer): not a WAN bridge",
			  t->prof.name);
		return CLI_USAGE;
	}
	if (t->max_load < t->lo.step_bps) {
		cli_error(CMD, "--max-load must be at least --load-step");
		return CLI_USAGE;
	}
	t->lo.max_steps = (size_t)(t->max_load / t->lo.step_bps) + 1;
	if (t->lo.max_steps > IPX_BWAN_MAX_STEPS) {
		cli_error(CMD, "--max-load / --load-step: at most %d loads "
			       "(the first is none)",
			  IPX_BWAN_MAX_STEPS - 1);
		return CLI_USAGE;
	}
	return fsbench_check(&t->b);
}

int bench_wan(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "seconds", required_argument, NULL, 's' },
		{ "quick", no_argument, NULL, OPT_QUICK },
		{ "parts", required_argument, NULL, OPT_PARTS },
		{ "stations", required_argument, NULL, OPT_STATIONS },
		{ "only", required_argument, NULL, OPT_ONLY },
		{ "max-stations", required_argument, NULL, OPT_MAXST },
		{ "wan-profile", required_argument, NULL, OPT_WANPROF },
		{ "load-step", required_argument, NULL, OPT_STEP },
		{ "max-load", required_argument, NULL, OPT_MAXLOAD },
		{ "deadline", required_argument, NULL, OPT_DEADLINE },
		{ "file", required_argument, NULL, OPT_FILE },
		{ "probes", required_argument, NULL, OPT_PROBES },
		FSBENCH_LONGOPTS,
		{ NULL, 0, NULL, 0 },
	};
	static struct wan t;
	const char *fixtures = NULL;
	bool quick = false, secs_given = false, given[OPT_PROBES + 1] = { 0 };
	int opt, rc, code = CLI_OK;

	memset(&t, 0, sizeof(t));
	t.b.cmd = "wan";
	t.b.wait = 10;
	t.parts = PART_BATTERY | PART_LIMIT | PART_SCALING;
	t.sets[0] = 1;
	t.sets[1] = 5;
	t.nsets = 2;
	memset(t.only, 1, sizeof(t.only));
	t.max_stations = 8;
	t.wan_profile = "isn";
	t.lo.file_size = 25184;
	t.lo.step_bps = 100000;
	t.max_load = 2000000;
	t.lo.warmup = 5;
	t.lo.drain = 2;
	optind = 1;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":s:qvh", longopts, NULL)) !=
	       -1) {
		if (opt == 'h') {
			help_bench_wan(stdout);
			return CLI_OK;
		}
		if (opt == FSB_OPT_FIXTURES) {
			fixtures = optarg;
			continue;
		}
		rc = parse_own(&t, opt, optarg, &quick, &secs_given);
		if (rc < 0)
			return CLI_USAGE;
		if (rc > 0) {
			if (opt >= OPT_SECONDS && opt <= OPT_PROBES)
				given[opt] = true;
			continue;
		}
		rc = fsbench_opt(&t.b, opt, optarg, 0, &code);
		if (rc < 0)
			return CLI_USAGE;
		if (rc == 0)
			return bench_bad_option("wan", opt, argv);
	}
	if (optind < argc) {
		cli_error(CMD, "wan: unexpected argument '%s'", argv[optind]);
		return CLI_USAGE;
	}
	if (quick && secs_given) {
		cli_error(CMD, "--quick and --seconds exclude each other");
		return CLI_USAGE;
	}
	if (quick)
		apply_quick(&t, given[OPT_STATIONS], given[OPT_ONLY],
			    given[OPT_MAXST], given[OPT_FILE], given[OPT_STEP],
			    given[OPT_MAXLOAD]);
	/* as many workstations as the parts run need */
	t.b.agents = 1;
	if (t.parts & PART_SCALING)
		t.b.agents = t.max_stations;
	for (size_t s = 0; s < t.nsets && (t.parts & PART_BATTERY); s++)
		t.b.agents = t.sets[s] > t.b.agents ? t.sets[s] : t.b.agents;
	if ((t.parts & PART_LIMIT) && t.lo.probes > t.b.agents)
		t.b.agents = (unsigned)t.lo.probes;
	if (fixtures) {
		fsbench_opt(&t.b, FSB_OPT_FIXTURES, fixtures, t.b.agents, &code);
		return code;
	}
	rc = check(&t);
	if (rc != CLI_OK)
		return rc;
	for (int op = 0; op < IPX_BN_BATTERY_OPS; op++)
		t.total += (t.parts & PART_BATTERY) && t.only[op]
				   ? 2 * (unsigned)t.nsets
				   : 0;
	t.total += (t.parts & PART_LIMIT) ? (unsigned)t.lo.max_steps : 0;
	t.total += (t.parts & PART_SCALING) ? 2 * t.max_stations : 0;
	if (ipx_log_get_level() == IPX_LOG_INFO)
		ipx_log_set_level(IPX_LOG_WARN);
	t.b.before_attach = start_far;
	rc = fsbench_start(&t.b);
	if (rc == CLI_OK)
		rc = run_parts(&t);
	if (rc == CLI_OK) {
		if (t.b.json)
			print_json(&t);
		else if (t.b.csv)
			print_csv(&t);
		else
			print_table(&t);
	}
	stop_far(&t);
	fsbench_stop(&t.b, rc == CLI_OK);
	return rc;
}
