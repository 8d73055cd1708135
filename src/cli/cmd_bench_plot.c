/*
 * cmd_bench_plot.c - "ipxlab bench plot RESULT.json": one benchmark's
 * plots drawn by gnuplot from a saved result (a bench command's --json or
 * a file of 'bench suite'), so a result from another machine can be drawn
 * here. The library (src/bench/plot.c) writes the scripts and data and
 * runs gnuplot.
 */
#include <getopt.h>
#include <libgen.h>
#include <string.h>

#include "cli.h"
#include "ipxlab/bench_suite.h"

#define CMD "bench"

void help_bench_plot(FILE *out)
{
	fprintf(out,
		"usage: ipxlab bench plot RESULT.json [-o DIR]\n\n"
		"Draw one benchmark's plots from its saved result: the JSON of\n"
		"'ipxlab bench NAME --json' or a bN-NAME.json of 'ipxlab bench\n"
		"suite'. Each plot is NAME.gp (the gnuplot script), NAME.dat (its\n"
		"data) and, drawn by gnuplot, NAME.svg and NAME.png.\n\n"
		"  -o, --output DIR    where (default: plots/ beside RESULT.json)\n"
		"Without gnuplot the scripts and data are written, the message\n"
		"says so and the exit status is 1.\n");
}

/* The files of the plots b has (those whose data was written). */
static void list(const char *dir, const struct ipx_suite_bench *b)
{
	char path[4096];

	for (const struct ipx_plot_kind *k = b->plots; k->name; k++) {
		cli_path_join(path, sizeof(path), dir, k->name);
		printf("%s.gp  %s\n", path, k->title);
	}
}

int bench_plot(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	char dirbuf[4096], note[512], err[512];
	const struct ipx_suite_bench *b;
	const struct ipx_jv *res;
	const char *dir = NULL;
	struct ipx_jv *doc;
	int opt, n;

	optind = 1;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":o:h", longopts, NULL)) != -1) {
		if (opt == 'o')
			dir = optarg;
		else if (opt == 'h') {
			help_bench_plot(stdout);
			return CLI_OK;
		} else
			return bench_bad_option("plot", opt, argv);
	}
	if (optind + 1 != argc) {
		cli_error(CMD, "plot: %s", optind == argc
			  ? "which result? usage: ipxlab bench plot RESULT.json"
			  : "one result at a time");
		return CLI_USAGE;
	}
	if (ipx_json_load(argv[optind], &doc, err, sizeof(err)) < 0) {
		cli_error(CMD, "plot: %s", err);
		return CLI_FAIL;
	}
	if (!dir) {
		snprintf(note, sizeof(note), "%s", argv[optind]);
		cli_path_join(dirbuf, sizeof(dirbuf), dirname(note), "plots");
		dir = dirbuf;
	}
	b = ipx_suite_of(doc, &res);
	n = ipx_plot_result(doc, dir, note, sizeof(note));
	if (b && n >= 0)
		printf("%s %s: %d plot%s in %s\n", b->spec, b->name, n,
		       cli_s((unsigned)n), dir);
	if (b && b->plots[0].name)
		list(dir, b);
	ipx_jv_free(doc);
	if (n < 0) {
		cli_error(CMD, "plot: %s: %s", argv[optind], note);
		return CLI_FAIL;
	}
	return CLI_OK;
}
