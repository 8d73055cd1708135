/*
 * cmd_bench_mount.c - "ipxlab bench mount": sequential write and read of
 * one file through `ipxlab mount` beside the same transfer by the NCP
 * client (what `ipxlab ncp put` and `get` do), in one run; the medians
 * and their ratio against the 0.80 target (docs/mount.md). This file
 * parses the options and prints; src/bench/mount.c measures.
 */
#include <getopt.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "bench_common.h"
#include "cli.h"
#include "ipxlab/bench_mount.h"
#include "ipxlab/err.h"
#include "ipxlab/log.h"

#define CMD "bench"
#define DEFAULT_MB 32
#define DEFAULT_REPEAT 5

enum { OPT_MB = OPT_FIRST_CMD + 1, OPT_CONNS };

void help_bench_mount(FILE *out)
{
	fprintf(out,
		"usage: ipxlab bench mount [options]\n\n"
		"Sequential write and read of one file through 'ipxlab mount'\n"
		"beside the same transfer by the NCP client ('ipxlab ncp put'\n"
		"and 'get'), in one run: a hub, ipxlab's file server and the\n"
		"mount are started here; the file is written and read in 1 MB\n"
		"calls, each transfer from the open to the close. Each run\n"
		"makes the four transfers, the two paths in turn (which goes\n"
		"first alternates); the medians over the runs in MB/s and the\n"
		"ratio mount/client, target >= %.2f (PASS or MISS). Needs root\n"
		"and /dev/fuse.\n\n"
		"      --mb N          the file's size in MB (default %d, 1 to %d)\n"
		"      --conns N       the mount's connections (default 4, 1 to 16)\n"
		"  -r, --repeat N      runs (default %d, 1 to %d)\n"
		"      --json, --csv   the results as JSON or CSV (one run a row)\n"
		"  -q, --quiet         no progress line\n"
		"  -h, --help          this help\n",
		IPX_BMOUNT_TARGET, DEFAULT_MB, IPX_BMOUNT_MAX_MB,
		DEFAULT_REPEAT, IPX_BMOUNT_MAX_REPEAT);
}

static volatile sig_atomic_t stop;

static void on_signal(int signo)
{
	(void)signo;
	stop = 1;
}

static void progress(void *ctx, const char *line)
{
	(void)ctx;
	if (line)
		fprintf(stderr, "\r%-72.72s", line);
	else
		fprintf(stderr, "\r%72s\r", "");
}

static void json_cond(struct ipx_jw *w, const void *ctx)
{
	char m[128];

	(void)ctx;
	ipx_jw_str(w, "version", cli_version_text());
	ipx_jw_str(w, "machine", cli_machine_text(m, sizeof(m)));
}

static void print_path(const struct ipx_bmount_report *rep, bool write)
{
	enum ipx_bmount_xfer x = write ? IPX_BMOUNT_MOUNT_WRITE
				       : IPX_BMOUNT_MOUNT_READ;
	struct ipx_stat_summary a, b;
	double r = ipx_bmount_ratio(rep, write);

	ipx_bmount_median(rep, x, &a);
	ipx_bmount_median(rep, (enum ipx_bmount_xfer)(x + 1), &b);
	printf("%-6s %7.2f [%6.2f-%6.2f]  %-3s %7.2f [%6.2f-%6.2f]  %5.2f  "
	       ">= %.2f %s\n",
	       write ? "write" : "read", a.median, a.min, a.max,
	       write ? "put" : "get", b.median, b.min, b.max, r,
	       IPX_BMOUNT_TARGET, r >= IPX_BMOUNT_TARGET ? "PASS" : "MISS");
}

static void print_table(const struct ipx_bmount_report *rep)
{
	const struct ipx_bmount_opts *o = &rep->o;
	char m[128];

	printf("bench mount: %u MB written and read through 'ipxlab mount' "
	       "and by the NCP client, %u run%s\n",
	       o->mb, rep->runs, cli_s(rep->runs));
	printf("# ipxlab %s on %s\n", cli_version_text(),
	       cli_machine_text(m, sizeof(m)));
	printf("# load average %.2f %.2f %.2f before, %.2f %.2f %.2f after; "
	       "NCP buffer %u bytes, %u mount connections, 1 MB calls\n",
	       rep->load_before[0], rep->load_before[1], rep->load_before[2],
	       rep->load_after[0], rep->load_after[1], rep->load_after[2],
	       rep->bufsize, o->conns ? o->conns : 4);
	printf("%-6s %-24s  %-28s  %5s  %s\n", "", "mount MB/s median [min-max]",
	       "ncp MB/s median [min-max]", "ratio", "target");
	print_path(rep, true);
	print_path(rep, false);
}

static int parse(int argc, char **argv, struct ipx_bmount_opts *o,
		 struct bench_common *c, unsigned long *repeat)
{
	static const struct option longopts[] = {
		{ "mb", required_argument, NULL, OPT_MB },
		{ "conns", required_argument, NULL, OPT_CONNS },
		BENCH_COMMON_LONGOPTS,
		{ NULL, 0, NULL, 0 },
	};
	unsigned long v;
	int opt, rc;

	optind = 1;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":s:r:qh", longopts, NULL)) !=
	       -1) {
		if (opt == OPT_MB || opt == OPT_CONNS) {
			if (cli_parse_uint(CMD, opt == OPT_MB ? "--mb"
							      : "--conns",
					   optarg, 1,
					   opt == OPT_MB ? IPX_BMOUNT_MAX_MB
							 : 16, &v) < 0)
				return CLI_USAGE;
			*(opt == OPT_MB ? &o->mb : &o->conns) = (unsigned)v;
			continue;
		}
		if (opt == 's') {
			cli_error(CMD, "mount: no --seconds (--mb sets the "
				       "size)");
			return CLI_USAGE;
		}
		rc = bench_common_opt(c, opt, optarg, argv);
		if (rc != 1)
			return rc < 0 ? -1 : rc;
	}
	o->repeat = (unsigned)*repeat;
	return bench_common_end(c, argc, argv);
}

int bench_mount(int argc, char **argv)
{
	static struct ipx_bmount_report rep;
	struct ipx_bmount_opts o = { .mb = DEFAULT_MB, .stop = &stop };
	double seconds = 0;
	unsigned long repeat = DEFAULT_REPEAT;
	struct bench_common c = { .name = "mount", .help = help_bench_mount,
				  .seconds = &seconds, .repeat = &repeat,
				  .max_repeat = IPX_BMOUNT_MAX_REPEAT };
	struct sigaction sa;
	char err[512];
	int rc = parse(argc, argv, &o, &c, &repeat);

	if (rc)
		return rc < 0 ? CLI_OK : rc;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	if (ipx_log_get_level() == IPX_LOG_INFO)
		ipx_log_set_level(IPX_LOG_WARN);
	rc = ipx_bmount_run(&o, c.quiet || !isatty(STDERR_FILENO) ? NULL
								 : progress,
			    NULL, &rep, err, sizeof(err));
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	if (rc != IPX_OK) {
		cli_error(CMD, "mount: %s", err);
		if (!rep.runs)
			return CLI_FAIL;
	}
	if (rep.interrupted)
		fprintf(stderr, "ipxlab bench: mount: interrupted; printing the "
				"%u run%s that finished\n",
			rep.runs, cli_s(rep.runs));
	if (c.json)
		ipx_bmount_write_json(stdout, &rep, json_cond, NULL);
	else if (c.csv)
		ipx_bmount_write_csv(stdout, &rep);
	else if (rep.runs)
		print_table(&rep);
	return rc != IPX_OK || rep.interrupted ? CLI_FAIL : CLI_OK;
}
