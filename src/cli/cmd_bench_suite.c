/*
 * cmd_bench_suite.c - "ipxlab bench suite": every benchmark of the 1990
 * note in one run, its results, plots and index.html in one directory
 * (docs/benchmarks.md, "The suite"). The library (src/bench/suite.c) runs
 * the table of benchmarks; this file parses the options, runs each bench
 * command in a forked child with its JSON going to the file the library
 * names, and prints the text report.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "ipxlab/bench_suite.h"
#include "ipxlab/link_profile.h"

#define CMD "bench"

enum { OPT_QUICK = 1000, OPT_SIM, OPT_PROFILE, OPT_SEED, OPT_ONLY,
       OPT_PERIODS };

static volatile sig_atomic_t stop_flag;

void help_bench_suite(FILE *out)
{
	fprintf(out,
		"usage: ipxlab bench suite [--quick] [--sim] [--periods] "
		"[--profile P] [-o DIR]\n\n"
		"Every benchmark of the 1990 note (B1-B9) in turn, with its full\n"
		"or quick settings, into DIR: each result as bN-NAME.json (the\n"
		"run's conditions around the benchmark's own JSON), its messages\n"
		"as bN-NAME.log, suite.json, gnuplot plots (plots/*.svg, .png,\n"
		"with their scripts and data) and index.html: every table with\n"
		"the 1990 figures beside ours, every plot, the conditions and\n"
		"what each column means. The same tables are printed here.\n\n"
		"  -o, --output DIR    the directory (default\n"
		"                      ipxlab-suite-YYYYMMDD-HHMMSS here)\n"
		"      --quick         each benchmark's quick settings\n"
		"      --sim           simulated time where a benchmark has it\n"
		"                      (B2-B9; B1 runs in real time on loopback)\n"
		"      --periods       each benchmark on its paper's period\n"
		"                      machines (--period, `ipxlab period`), with\n"
		"                      its fidelity table: 1990 | ipxlab as 1990\n"
		"                      | error %% | today\n"
		"      --seed N        --sim's and --periods' seed (default 1)\n"
		"      --profile NAME|FILE  the link of B2-B9 (eth10, tr4, ...)\n"
		"      --only LIST     these benchmarks only, e.g. B2,copy\n"
		"  -q, --quiet         no progress lines\n"
		"Without gnuplot the tables and the plots' scripts are written\n"
		"and the message says so.\n");
}

static void on_signal(int sig)
{
	stop_flag = sig;
}

/* The child: "bench ARGS" with stdout and stderr to the files. */
static void child(int argc, char **argv, const char *out_path,
		  const char *log_path)
{
	int out = open(out_path, O_WRONLY | O_CREAT | O_TRUNC, 0666);
	int log = open(log_path, O_WRONLY | O_CREAT | O_TRUNC, 0666);

	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	if (out < 0 || log < 0 || dup2(out, 1) < 0 || dup2(log, 2) < 0)
		_exit(126);
	close(out);
	close(log);
	optind = 1;
	int rc = cmd_bench(argc, argv);

	fflush(stdout);
	fflush(stderr);
	_exit(rc);
}

static int exec_bench(void *ctx, int argc, char **argv, const char *out_path,
		      const char *log_path, double timeout)
{
	struct timespec nap = { 0, 20 * 1000 * 1000 };
	double waited = 0, grace = 0;
	int st;
	pid_t pid;

	(void)ctx;
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0)
		child(argc, argv, out_path, log_path);
	while (waitpid(pid, &st, WNOHANG) == 0) {
		nanosleep(&nap, NULL);
		waited += 0.02;
		if (stop_flag)
			grace += 0.02;
		/* A terminal's Ctrl-C reached the child too; a signal sent
		 * to the suite alone is passed on after 1 s; 10 s to write
		 * what finished. */
		if (grace > 1 && grace <= 1.02)
			kill(pid, stop_flag);
		else if (grace > 10)
			kill(pid, SIGKILL);
		if (waited > timeout) {
			kill(pid, SIGKILL);
			waitpid(pid, &st, 0);
			return -1;
		}
	}
	if (stop_flag)
		return IPX_SUITE_STOPPED;
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void conditions(struct ipx_jw *w, void *ctx)
{
	char m[200];

	(void)ctx;
	ipx_jw_str(w, "version", cli_version_text());
	ipx_jw_str(w, "machine", cli_machine_text(m, sizeof(m)));
	ipx_jw_int(w, "cpus_online", sysconf(_SC_NPROCESSORS_ONLN));
}

static void progress(void *ctx, const char *line)
{
	if (line && !*(const bool *)ctx)
		fprintf(stderr, "%s\n", line);
}

/* --only: every name known. */
static int check_only(const char *list)
{
	char buf[256], *tok, *save;

	snprintf(buf, sizeof(buf), "%s", list);
	for (tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save))
		if (!ipx_suite_find(tok)) {
			cli_error(CMD, "suite: --only: no benchmark '%s' in "
				       "the suite", tok);
			return -1;
		}
	return 0;
}

static int parse(struct ipx_suite_opts *o, bool *quiet, int argc,
		 char **argv)
{
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "quick", no_argument, NULL, OPT_QUICK },
		{ "sim", no_argument, NULL, OPT_SIM },
		{ "periods", no_argument, NULL, OPT_PERIODS },
		{ "seed", required_argument, NULL, OPT_SEED },
		{ "profile", required_argument, NULL, OPT_PROFILE },
		{ "only", required_argument, NULL, OPT_ONLY },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct ipx_profile prof;
	unsigned long seed;
	int opt;

	optind = 1;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":o:qh", longopts, NULL)) != -1) {
		switch (opt) {
		case 'o': o->dir = optarg; break;
		case 'q': *quiet = true; break;
		case OPT_QUICK: o->quick = true; break;
		case OPT_SIM: o->sim = true; break;
		case OPT_PERIODS: o->periods = true; break;
		case OPT_SEED:
			if (cli_parse_uint(CMD, "--seed", optarg, 0,
					   0xffffffffUL, &seed) < 0)
				return CLI_USAGE;
			o->seed = seed;
			break;
		case OPT_PROFILE:
			if (cli_profile_opt(CMD, "--profile", optarg, &prof) < 0)
				return CLI_USAGE;
			o->profile = optarg;
			break;
		case OPT_ONLY:
			if (check_only(optarg) < 0)
				return CLI_USAGE;
			o->only = optarg;
			break;
		case 'h':
			help_bench_suite(stdout);
			return CLI_OK;
		default:
			return bench_bad_option("suite", opt, argv);
		}
	}
	return bench_end_of_options("suite", argc, argv, false, false) ==
			       CLI_OK ? -1 : CLI_USAGE;
}

int bench_suite(int argc, char **argv)
{
	struct ipx_suite_opts o = { .seed = 1 };
	struct ipx_suite_report rep;
	char dir[64], options[512] = "ipxlab bench", err[600] = "";
	char abs[PATH_MAX];
	bool quiet = false, failed = false;
	time_t t = time(NULL);
	int rc = parse(&o, &quiet, argc, argv);

	if (rc >= 0)
		return rc;
	if (!o.dir) {
		strftime(dir, sizeof(dir), "ipxlab-suite-%Y%m%d-%H%M%S",
			 localtime(&t));
		o.dir = dir;
	}
	for (int i = 0; i < argc; i++)
		snprintf(options + strlen(options),
			 sizeof(options) - strlen(options), " %s", argv[i]);
	o.options = options;
	o.exec = exec_bench;
	o.cond = conditions;
	o.progress = progress;
	o.ctx = &quiet;
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	if (ipx_suite_run(&o, &rep, err, sizeof(err)) < 0) {
		cli_error(CMD, "suite: %s", err);
		return CLI_FAIL;
	}
	printf("ipxlab benchmark suite%s%s%s: %s\n", o.quick ? ", quick" : "",
	       o.sim ? ", simulated time where a benchmark has it" : "",
	       o.periods ? ", on the papers' period machines" : "", o.dir);
	ipx_suite_print(stdout, o.dir, &rep);
	for (size_t i = 0; i < rep.nran; i++)
		failed |= rep.ran[i].status != 0 || !rep.ran[i].result;
	if (rep.plot_note[0])
		cli_error(CMD, "suite: %s", rep.plot_note);
	printf("\nReport: %s/index.html\n",
	       realpath(o.dir, abs) ? abs : o.dir);
	return failed || rep.stopped ? CLI_FAIL : CLI_OK;
}
