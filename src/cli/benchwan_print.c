/*
 * benchwan_print.c - the figures of "ipxlab bench wan" (benchwan.h): the
 * table with the 1990 figures beside (JSON and CSV: benchwan_json.c),
 * and the --help text.
 */
#include <stdio.h>
#include <unistd.h>

#include "benchwan.h"
#include "cli.h"
#include "ipxlab/bench_stat.h"


/* --repeat > 1: "  local [a-b] bridged [c-d]", the ops/s per workstation
 * of the runs of one test (each side's runs[0..n-1]). */
static void print_ranges(const struct wan *t, const struct ipx_bwan_point *l,
			 const struct ipx_bwan_point *b)
{
	double v[2][FSBENCH_MAX_REPEAT];
	struct ipx_stat_summary sl, sb;

	if (t->b.repeat < 2)
		return;
	for (unsigned k = 0; k < t->b.repeat; k++) {
		v[0][k] = l[k].per_ws;
		v[1][k] = b[k].per_ws;
	}
	ipx_stat_summarize(v[0], t->b.repeat, &sl);
	ipx_stat_summarize(v[1], t->b.repeat, &sb);
	printf("  local [%.1f-%.1f] bridged [%.2f-%.2f]", sl.min, sl.max,
	       sb.min, sb.max);
}

/* The table's note on repeats, when there are. */
static void print_repeat_note(const struct wan *t)
{
	if (t->b.repeat > 1)
		printf("Each figure the median of %u runs; [min-max] the runs' "
		       "ops/s per workstation, local and bridged\n",
		       t->b.repeat);
}

double wan_pct(double part, double whole)
{
	return whole > 0 ? 100 * part / whole : 0;
}

/* The mean over the tests run of bridged/local wire traffic, for one
 * workstation count. */
double wan_mean_traffic_pct(const struct wan *t, size_t s)
{
	double sum = 0;
	int n = 0;

	for (int op = 0; op < IPX_BN_BATTERY_OPS; op++)
		if (t->o.only[op]) {
			sum += wan_pct(t->r.bat[1][s][op].wire_kB_per_s,
				   t->r.bat[0][s][op].wire_kB_per_s);
			n++;
		}
	return n ? sum / n : 0;
}

/* The 1990 averages: one bridged workstation about 32 % of a local one's
 * traffic, five about 54 %; none for other counts. */
double wan_published_pct(unsigned ws)
{
	return ws == 1 ? 32 : ws == 5 ? 54 : 0;
}

/* --sim: what the shared conditions line says for one network, for two. */
static void print_sim_conditions(const struct wan *t, FILE *out)
{
	char m[200];

	fprintf(out, "# ipxlab %s on %s, %ld CPUs online; no CPU pinning\n",
		cli_version_text(), cli_machine_text(m, sizeof(m)),
		sysconf(_SC_NPROCESSORS_ONLN));
	fprintf(out, "# simulated time, seed %llu: two networks in this "
		     "process, each on its own simulated clock; local: server "
		     "'%s', workstations and controller on one in-memory "
		     "segment, profile %s%s; bridged: server '%s' alone on one "
		     "segment of %s, workstations and controller on another, "
		     "joined by the in-process WAN bridge; %.1f simulated "
		     "seconds in all (local %.1f, bridged %.1f); %s%s%s\n",
		(unsigned long long)t->b.seed, t->b.n.srvname,
		t->b.profile.name,
		t->b.profile_default ? " (--sim's default)" : "", t->far_name,
		t->b.profile.name, t->sim_seconds[0] + t->sim_seconds[1],
		t->sim_seconds[0], t->sim_seconds[1],
		t->b.have_period ? "period " : "only the wire takes time (no "
					       "server or workstation CPU)",
		t->b.have_period ? t->b.period.name : "",
		t->b.have_period ? ": the servers and workstations on its "
				   "machines (CPU, disk and adapters take "
				   "time)"
				 : "");
	fprintf(out, "# workstations: %zu agent(s) on each network, each its "
		     "own IPX node and NCP connection\n",
		t->b.n.nseen);
}

static void print_conditions(const struct wan *t, FILE *out)
{
	if (t->b.sim)
		print_sim_conditions(t, out);
	else
		fsbench_print_conditions(&t->b, out);
	fprintf(out, "# bridge: %s, profile %s: %.0f kbit/s each "
		     "way, receive buffer %u bytes, transmit buffer %u, hold "
		     "%.3g ms, IPX packets over %u bytes dropped\n",
		t->b.sim ? "the in-process WAN bridge modules" : "'ipxlab bridge'",
		t->prof.name, t->prof.rate / 1000.0, t->prof.rx_buffer,
		t->prof.tx_buffer, t->prof.hold_ns / 1e6, t->prof.bridge_max);
	if (t->b.sim)
		fprintf(out, "# the bridged network's segments carry IPX "
			     "packets of at most %u bytes (the NCP buffer "
			     "fits across); the limit's load runs between "
			     "two spare nodes, one on each side\n",
			t->prof.bridge_max);
	else
		fprintf(out, "# local server '%s' on the workstations' hub %s; "
			     "bridged server '%s' on the bridge's hub %s "
			     "(--max-buffer " WAN_FAR_BUFFER ")%s%s\n",
			t->b.n.srvname, t->b.n.hubtext, t->far_name, t->far_hub,
			t->lan_arg ? "; both hubs segments of " : "",
			t->lan_arg ? t->b.profile.name : "");
}

static void print_battery(const struct wan *t)
{
	printf("\nBattery with and without the bridge (ops/s per "
	       "workstation; kB/s, kB = 1000 bytes, on each workstation's "
	       "link)\n");
	printf("%-38s %3s %9s %9s %8s %9s %9s %8s  %s\n", "test", "ws",
	       "local", "bridged", "ops %", "kB/s loc", "kB/s br", "traffic%",
	       "1990 peak Kbyte/s local | bridged");
	for (int op = 0; op < IPX_BN_BATTERY_OPS; op++)
		for (size_t s = 0; s < t->o.nsets && t->o.only[op]; s++) {
			const struct ipx_bwan_point *l = &t->r.bat[0][s][op],
						    *b = &t->r.bat[1][s][op];
			double pl, pb;

			ipx_bn_published_kbs(op, &pl, &pb);
			printf("%-38s %3u %9.1f %9.2f %7.2f%% %9.1f %9.2f "
			       "%7.2f%%  ",
			       s ? "" : ipx_bn_op_title(op), t->o.sets[s],
			       l->per_ws, b->per_ws, wan_pct(b->per_ws, l->per_ws),
			       l->wire_kB_per_s, b->wire_kB_per_s,
			       wan_pct(b->wire_kB_per_s, l->wire_kB_per_s));
			if (t->o.sets[s] == 1)
				printf("%5.0f | %-3.0f", pl, pb);
			else
				printf("%5s", "-");
			print_ranges(t, t->r.bat_runs[0][s][op],
				     t->r.bat_runs[1][s][op]);
			printf("\n");
		}
	print_repeat_note(t);
	for (size_t s = 0; s < t->o.nsets; s++) {
		printf("Bridged traffic as a share of local, mean over the "
		       "tests, %u workstation%s: %.2f%%",
		       t->o.sets[s], t->o.sets[s] == 1 ? "" : "s",
		       wan_mean_traffic_pct(t, s));
		if (wan_published_pct(t->o.sets[s]) > 0)
			printf(" (1990: about %.0f%%)",
			       wan_published_pct(t->o.sets[s]));
		printf("\n");
	}
}

/* The last completed loads of the searches that completed one, their
 * summary; how many. */
size_t wan_limit_loads(const struct wan *t, struct ipx_stat_summary *st)
{
	double v[FSBENCH_MAX_REPEAT] = { 0 };
	size_t n = 0;

	for (unsigned k = 0; k < t->b.repeat; k++)
		if (t->r.lim_load[k] >= 0)
			v[n++] = t->r.lim_load[k];
	ipx_stat_summarize(v, n, st);
	return n;
}

/* --repeat > 1: each search's last completed load, their median. */
static void print_limit_runs(const struct wan *t)
{
	struct ipx_stat_summary st;
	size_t n = wan_limit_loads(t, &st);

	printf("The steps above are search %d of %u, the median; the last "
	       "completed load of each search (kbit/s):",
	       t->r.lim_med + 1, t->b.repeat);
	for (unsigned k = 0; k < t->b.repeat; k++)
		if (t->r.lim_load[k] < 0)
			printf(" none");
		else
			printf(" %.0f", t->r.lim_load[k] / 1000.0);
	if (n)
		printf("; median %.0f [%.0f-%.0f]", st.median / 1000.0,
		       st.min / 1000.0, st.max / 1000.0);
	if (n < t->b.repeat)
		printf(" (of the %zu that completed one)", n);
	printf("\n");
}

static void print_limit(const struct wan *t)
{
	int k = ipx_bwan_limit_found(t->r.steps, t->r.nsteps);

	printf("\nThroughput limit: a paced load of %d-byte IPX packets %s, "
	       "and %zu workstation%s copying the %u-byte file from the "
	       "bridged server at each load (%.1f s of load first)\n",
	       IPX_BWAN_FLOOD_SIZE,
	       t->o.lo.up ? "each way at once (the server's segment to the "
			  "workstations' and back), the offered load each way"
			: "from the server's segment to the workstations'",
	       t->o.lo.probes ? t->o.lo.probes : 1, t->o.lo.probes > 1 ? "s" : "",
	       t->o.lo.file_size, t->o.lo.warmup);
	printf("%12s %19s %19s %11s %8s %9s %8s %6s\n", "offered",
	       "to workstations", "to the server", "copy", "", "", "", "");
	printf("%12s %9s %9s %9s %9s %11s %8s %9s %8s %6s  %s\n",
	       "kbit/s", "sent", "carried", "sent", "carried", "kbit/s",
	       "copy s", "deadline", "retrans", "result", "");
	for (size_t i = 0; i < t->r.nsteps; i++) {
		const struct ipx_bwan_step *st = &t->r.steps[i];

		printf("%12.0f %9.1f %9.1f %9.1f %9.1f %11.1f %8.2f %9.2f "
		       "%8llu %6s  %s\n",
		       st->load_bps / 1000.0,
		       st->sent_bps[IPX_BWAN_DOWN] / 1000.0,
		       st->carried_bps[IPX_BWAN_DOWN] / 1000.0,
		       st->sent_bps[IPX_BWAN_UP] / 1000.0,
		       st->carried_bps[IPX_BWAN_UP] / 1000.0,
		       st->copy_bps / 1000.0, st->copy_max_s, st->deadline,
		       (unsigned long long)st->retransmits,
		       st->ok ? "ok" : "FAIL", st->ok ? "" : st->why);
	}
	if (k < 0)
		printf("No load completed: the copy failed with no load.\n");
	else if ((size_t)k + 1 == t->r.nsteps)
		printf("Every load tried completed; the last: %.0f kbit/s "
		       "offered each way, carried %.1f to the workstations "
		       "and %.1f to the server (raise --max-load).\n",
		       t->r.steps[k].load_bps / 1000.0,
		       t->r.steps[k].carried_bps[IPX_BWAN_DOWN] / 1000.0,
		       t->r.steps[k].carried_bps[IPX_BWAN_UP] / 1000.0);
	else
		printf("Last load that completed: %.0f kbit/s offered each "
		       "way, carried %.1f to the workstations and %.1f to the "
		       "server, plus the copy's %.1f kbit/s.\n",
		       t->r.steps[k].load_bps / 1000.0,
		       t->r.steps[k].carried_bps[IPX_BWAN_DOWN] / 1000.0,
		       t->r.steps[k].carried_bps[IPX_BWAN_UP] / 1000.0,
		       t->r.steps[k].copy_bps / 1000.0);
	if (t->b.repeat > 1)
		print_limit_runs(t);
	printf("1990: about 950 kbit/s each way (1.9 Mbit/s in all), above "
	       "which packets were discarded or transfers timed out; "
	       "planning figure 1.5-1.7 Mbit/s. Sent and carried count IPX "
	       "bytes (kbit = 1000 bits) over the same time, the load's "
	       "start to the copies' end: carried is what of the step's "
	       "sent packets arrived by then, so never more than sent; the "
	       "trunk adds the %u-byte link header to each.\n",
	       t->prof.header);
}

static void print_scaling(const struct wan *t)
{
	printf("\nScaling: open/close file, multiple directories, ops/s per "
	       "workstation (%.1f s each)\n",
	       ipx_bwan_scale_seconds(t->o.seconds));
	printf("%3s %10s %10s %9s %12s %12s\n", "ws", "local", "bridged",
	       "bridged%", "total local", "total br");
	for (unsigned n = 0; n < t->o.max_stations; n++) {
		const struct ipx_bwan_point *l = &t->r.scale[0][n],
					    *b = &t->r.scale[1][n];

		printf("%3u %10.1f %10.2f %8.2f%% %12.1f %12.2f", n + 1,
		       l->per_ws, b->per_ws, wan_pct(b->per_ws, l->per_ws),
		       l->total, b->total);
		print_ranges(t, t->r.scale_runs[0][n], t->r.scale_runs[1][n]);
		printf("\n");
	}
	print_repeat_note(t);
	printf("1990: one workstation alone saw worse response than five; "
	       "per-workstation performance rose as workstations were "
	       "added, up to saturation (no figures published).\n");
}

void wan_print_table(const struct wan *t)
{
	printf("B6 bridged network: NCP over IPX, workstations and file "
	       "server on two segments joined by the WAN bridge\n");
	print_conditions(t, stdout);
	if (t->o.parts & PART_BATTERY)
		print_battery(t);
	if (t->o.parts & PART_LIMIT)
		print_limit(t);
	if (t->o.parts & PART_SCALING)
		print_scaling(t);
	if (t->interrupted)
		printf("\nInterrupted: only the parts above finished.\n");
}

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
		"      --profile NAME|FILE  the LAN: eth10, tr4, tr16 or a profile\n"
		"                      file; in real time both hubs become\n"
		"                      segments of it (default: today's link)\n"
		"      --sim           all of it in this process in simulated\n"
		"                      time: the local case on one in-memory\n"
		"                      segment of the --profile (default eth10),\n"
		"                      the bridged case on two such segments\n"
		"                      joined by the in-process bridge of\n"
		"                      --wan-profile; only the wire takes time;\n"
		"                      deterministic\n"
		"      --period NAME|FILE  --sim on a 1990 period's machines\n"
		"                      (netware-1990): servers and workstations\n"
		"                      take CPU, disk and adapter time, the\n"
		"                      period's bridge (isn-1990) replaces\n"
		"                      --wan-profile; no fidelity table (the\n"
		"                      note gave no figures of B6's own)\n"
		"      --seed N        --sim's randomness (default 1): same seed,\n"
		"                      same output\n"
		"      --repeat N      each battery test and scaling point N\n"
		"                      times (1 to 50): the table shows the median\n"
		"                      [min-max], the JSON and CSV every run; the\n"
		"                      limit search N times: each search's last\n"
		"                      completed load and their median (with\n"
		"                      --sim one after another on the same\n"
		"                      networks: later simulated time, one seed)\n"
		"      --fixtures DIR  write the fixtures into DIR and exit\n"
		"      --wait S        for the hubs, bridge, agents and servers\n"
		"                      (default 10)\n"
		"      --json, --csv   machine-readable output instead of the table\n"
		"  -q, --quiet         no progress line; -v, --verbose more log lines\n",
		WAN_QUICK_SECONDS, IPX_BN_MAX_STATIONS);
}
