/*
 * cmd_bench_tuning.c - "ipxlab bench tuning": B9, the 1990 buffer and
 * frame-size tuning (docs/benchmarks.md): the adapters' transmit buffer
 * size, one or two transmit buffers and the receive buffer size, one at a
 * time from a baseline, for large reads and writes over NetBIOS sessions
 * and NCP with 1 and 6 workstations, each step's percent change beside
 * the note's, and the wire ceiling.
 *
 * This file parses the options, refuses a configuration that does not
 * fit the adapter memory before anything runs (ipx_b9_plan), calls
 * ipx_b9_run (src/bench/b9_tuning.c) once and prints: the table with
 * cmd_bench_tuning_text.c, the JSON and CSV from the library's writers.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "cmd_bench_tuning.h"
#include "ipxlab/bench_b9.h"
#include "ipxlab/err.h"
#include "ipxlab/log.h"

#define CMD "bench"
#define DEFAULT_SECONDS 2.0

enum { OPT_SIM = OPT_FIRST_CMD + 1, OPT_SEED, OPT_PROFILE, OPT_MEMORY,
       OPT_TXBUFS, OPT_TXSIZE, OPT_RXSIZE, OPT_JSON, OPT_CSV, OPT_PERIOD };

void help_bench_tuning(FILE *out)
{
	fprintf(out,
		"usage: ipxlab bench tuning [options]\n\n"
		"B9, the 1990 buffer and frame-size tuning (LAN Manager on\n"
		"Token-Ring): from a baseline adapter, one parameter at a time:\n"
		"the transmit buffer size (256 to 4K, every station; a session\n"
		"uses the smaller side's frames), two transmit buffers, and a\n"
		"larger receive buffer on the workstations and on the server.\n"
		"Each runs large reads and writes over a NetBIOS session (1\n"
		"workstation) and over NCP (1 and 6), on the file-server network\n"
		"in one process; kB/s (kB = 1000 bytes) and each step's percent\n"
		"change beside the note's, and the wire ceiling (back-to-back\n"
		"2,000-byte frames against 666.7 kB/s, the note's 651 KB/s of\n"
		"1,024 bytes; six workstations against 548.9 kB/s, its 536\n"
		"KB/s). A configuration that does not fit the adapter memory\n"
		"is refused before anything runs.\n\n"
		"      --sim           simulated time (deterministic with --seed);\n"
		"                      without it the same network on the real\n"
		"                      clock\n"
		"      --seed N        the simulation's seed (default 1)\n"
		"      --period P      the 1990 machines (implies --sim): a named\n"
		"                      period or a period file; the\n"
		"                      workstations and the server (LAN Manager's\n"
		"                      NetBIOS server too) on its machines and\n"
		"                      adapters, its wire, then the fidelity table\n"
		"                      (1990 | ipxlab as 1990 | error | today's\n"
		"                      --sim) with the ISA/MCA server rows;\n"
		"                      lanman-1991 is B9's; the named ones:\n"
		"                      %s\n"
		"  -s, --seconds S     per workload and step (default %.0f)\n"
		"      --profile P     the wire: a named profile or a file\n"
		"                      (default tr16); its adapter keys, if set,\n"
		"                      are the baseline\n"
		"      --memory SIZE   adapter memory: 8K, 16K, 32K or 64K\n"
		"                      (default 16K)\n"
		"      --tx-buffers N  1 or 2 transmit buffers (default 1)\n"
		"      --tx-size SIZE  baseline transmit buffer (default 2K)\n"
		"      --rx-size SIZE  baseline receive buffer (default 1K)\n"
		"      --json, --csv   machine-readable output (one of them)\n"
		"  -q, --quiet         no progress line\n"
		"  -h, --help          this text\n\n"
		"See %s/benchmarks.md (B9) for the method and every column.\n",
		ipx_period_names(), DEFAULT_SECONDS, cli_docs);
}


static void progress(void *ctx, const char *line)
{
	const struct tuning *t = ctx;

	if (!t->progress)
		return;
	if (line)
		fprintf(stderr, "\r\033[K  %s", line);
	else
		fprintf(stderr, "\r\033[K");
}

static void on_loop(struct ipx_loop *loop, void *ctx)
{
	(void)ctx;
	cli_stop_on_signals(loop);
}

static void cond(struct ipx_jw *w, const void *ctx)
{
	char m[200];

	(void)ctx;
	ipx_jw_str(w, "version", cli_version_text());
	ipx_jw_str(w, "machine", cli_machine_text(m, sizeof(m)));
	ipx_jw_int(w, "cpus_online", sysconf(_SC_NPROCESSORS_ONLN));
	ipx_jw_str(w, "link", "in-memory segment");
}

static int run(struct tuning *t)
{
	char err[768];
	int rc;

	if (ipx_log_get_level() == IPX_LOG_INFO)
		ipx_log_set_level(IPX_LOG_WARN);
	rc = ipx_b9_run(&t->o, progress, t, &t->rep, err, sizeof(err));
	if (rc == IPX_ECLOSED) {
		cli_error(CMD, "tuning: interrupted; printing the steps that "
			       "finished");
	} else if (rc != IPX_OK) {
		cli_error(CMD, "tuning: %s", err);
		return CLI_FAIL;
	}
	if (t->json)
		ipx_b9_write_json(stdout, &t->rep, cond, t);
	else if (t->csv)
		ipx_b9_write_csv(stdout, &t->rep);
	else
		bench_tuning_print(t);
	return t->rep.interrupted ? CLI_FAIL : CLI_OK;
}

static int size_opt(const char *what, const char *arg, uint32_t *out)
{
	if (ipx_profile_parse_size(arg, out) != IPX_OK || !*out) {
		cli_error(CMD, "tuning: %s must be a size such as 2K or 2048 "
			       "(got '%s')",
			  what, arg);
		return CLI_USAGE;
	}
	return CLI_OK;
}

/* One option: CLI_OK, CLI_USAGE, or -1 after the help. */
static int option(struct tuning *t, int opt, const char *arg, char **argv)
{
	struct ipx_adapter *b = &t->o.base;
	unsigned long v;

	switch (opt) {
	case OPT_SIM:
		t->o.sim = true;
		return CLI_OK;
	case OPT_PERIOD:
		if (cli_period_opt(CMD, arg, &t->period) < 0)
			return CLI_USAGE;
		t->have_period = true;
		t->o.period = &t->period;
		t->o.sim = true;	/* --period implies --sim */
		return CLI_OK;
	case OPT_SEED:
		if (cli_parse_uint(CMD, "--seed", arg, 0, UINT32_MAX, &v) < 0)
			return CLI_USAGE;
		t->o.seed = v;
		t->seed_given = true;
		return CLI_OK;
	case 's':
		return cli_parse_seconds(CMD, "--seconds", arg, 0.01, 3600,
					 &t->o.seconds) < 0
			       ? CLI_USAGE
			       : CLI_OK;
	case OPT_PROFILE:
		t->profile_given = true;
		return cli_profile_opt(CMD, "--profile", arg, &t->o.profile) < 0
			       ? CLI_USAGE
			       : CLI_OK;
	case OPT_MEMORY:
		return size_opt("--memory", arg, &b->memory);
	case OPT_TXBUFS:
		if (cli_parse_uint(CMD, "--tx-buffers", arg, 1, 2, &v) < 0)
			return CLI_USAGE;
		b->tx_buffers = (uint32_t)v;
		return CLI_OK;
	case OPT_TXSIZE:
		return size_opt("--tx-size", arg, &b->tx_size);
	case OPT_RXSIZE:
		return size_opt("--rx-size", arg, &b->rx_size);
	case OPT_JSON:
		t->json = true;
		return CLI_OK;
	case OPT_CSV:
		t->csv = true;
		return CLI_OK;
	case 'q':
		t->quiet = true;
		return CLI_OK;
	case 'h':
		help_bench_tuning(stdout);
		return -1;
	}
	return bench_bad_option("tuning", opt, argv);
}

static const struct option longopts[] = {
	{ "sim", no_argument, NULL, OPT_SIM },
	{ "period", required_argument, NULL, OPT_PERIOD },
	{ "seed", required_argument, NULL, OPT_SEED },
	{ "seconds", required_argument, NULL, 's' },
	{ "profile", required_argument, NULL, OPT_PROFILE },
	{ "memory", required_argument, NULL, OPT_MEMORY },
	{ "tx-buffers", required_argument, NULL, OPT_TXBUFS },
	{ "tx-size", required_argument, NULL, OPT_TXSIZE },
	{ "rx-size", required_argument, NULL, OPT_RXSIZE },
	{ "json", no_argument, NULL, OPT_JSON },
	{ "csv", no_argument, NULL, OPT_CSV },
	{ "quiet", no_argument, NULL, 'q' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* Defaults, the options, and the checks that need them all. */
static int parse(struct tuning *t, int argc, char **argv)
{
	struct ipx_adapter given = { 0 };
	int opt, rc;

	ipx_profile_named("tr16", &t->o.profile);
	t->o.seconds = DEFAULT_SECONDS;
	t->o.seed = 1;
	optind = 1;
	opterr = 0;
	t->o.base = given;
	while ((opt = getopt_long(argc, argv, ":s:qh", longopts, NULL)) != -1)
		if ((rc = option(t, opt, optarg, argv)) != CLI_OK)
			return rc;
	rc = bench_end_of_options("tuning", argc, argv, t->json, t->csv);
	if (rc != CLI_OK)
		return rc;
	if (!t->o.sim && t->seed_given) {
		cli_error(CMD, "tuning: --seed is for --sim runs only");
		return CLI_USAGE;
	}
	given = t->o.base;	/* what the options set; 0: not set */
	if (t->have_period && !t->profile_given)
		t->o.profile = t->period.wire;
	if (t->have_period && t->period.station.have_adapter)
		t->o.base = t->period.station.adapter.adapter;
	else if (t->o.profile.adapter.memory)
		t->o.base = t->o.profile.adapter;
	else
		ipx_b9_default_adapter(&t->o.base);
	if (t->have_period && t->period.server.have_adapter)
		t->o.base_srv = t->period.server.adapter.adapter;
	if (given.memory)
		t->o.base.memory = given.memory;
	if (given.tx_buffers)
		t->o.base.tx_buffers = given.tx_buffers;
	if (given.tx_size)
		t->o.base.tx_size = given.tx_size;
	/* a wire of smaller frames (eth10): the largest step it holds */
	while (!given.tx_size && t->o.base.tx_size > 256 &&
	       t->o.base.tx_size > t->o.profile.max_frame)
		t->o.base.tx_size /= 2;
	if (given.rx_size)
		t->o.base.rx_size = given.rx_size;
	if (t->o.base_srv.memory) {	/* the options set both sides */
		struct ipx_adapter *s = &t->o.base_srv;

		if (given.memory)
			s->memory = given.memory;
		if (given.tx_buffers)
			s->tx_buffers = given.tx_buffers;
		s->tx_size = t->o.base.tx_size;
		if (given.rx_size)
			s->rx_size = given.rx_size;
	}
	return CLI_OK;
}

int bench_tuning(int argc, char **argv)
{
	struct tuning *t = calloc(1, sizeof(*t));
	char err[768];
	int rc;

	if (!t) {
		cli_error(CMD, "out of memory");
		return CLI_FAIL;
	}
	rc = parse(t, argc, argv);
	if (rc == CLI_OK && ipx_b9_plan(&t->o, &t->rep, err, sizeof(err)) !=
				    IPX_OK) {
		/* refused before anything runs, with the arithmetic */
		cli_error(CMD, "tuning: %s", err);
		rc = CLI_USAGE;
	}
	if (rc == CLI_OK) {
		t->progress = !t->quiet && isatty(STDERR_FILENO);
		t->o.on_loop = on_loop;
		rc = run(t);
	}
	free(t);
	return rc < 0 ? CLI_OK : rc;
}
