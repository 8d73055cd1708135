/*
 * plot.c - a result's plots (bench_suite.h): each plot kind's data file
 * and gnuplot script written into a directory, then gnuplot run there
 * once per script for an SVG and a PNG. Without gnuplot the scripts and
 * data stay (they can be drawn elsewhere) and the caller says why.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "suite_int.h"

#define GNUPLOT_TIMEOUT 30.0	/* seconds for one script */

const char *ipx_plot_gnuplot(char *buf, size_t len)
{
	const char *env = getenv("IPXLAB_GNUPLOT");
	const char *path = getenv("PATH");

	if (env && *env) {
		snprintf(buf, len, "%s", env);
		return access(buf, X_OK) ? NULL : buf;
	}
	while (path && *path) {
		const char *colon = strchr(path, ':');
		int n = colon ? (int)(colon - path) : (int)strlen(path);

		snprintf(buf, len, "%.*s/gnuplot", n, path);
		if (n && !access(buf, X_OK))
			return buf;
		path = colon ? colon + 1 : NULL;
	}
	return NULL;
}

const struct ipx_suite_bench *ipx_suite_of(const struct ipx_jv *doc,
					   const struct ipx_jv **res)
{
	const struct ipx_jv *in = ipx_jv_get(doc, "result");
	const char *name;

	if (in && in->type == IPX_JOBJ)
		doc = in;	/* the suite's file around the result */
	*res = doc;
	name = ipx_jv_str(doc, "benchmark");
	return name ? ipx_suite_find(name) : NULL;
}

/* The script: the body drawn once as SVG, once as PNG. */
static int write_script(const char *dir, const struct ipx_plot_kind *k)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s.gp", dir, k->name);
	f = fopen(path, "w");
	if (!f)
		return -1;
	fprintf(f, "# %s (ipxlab bench plot; gnuplot %s.gp)\n"
		   "data = '%s.dat'\n"
		   "set datafile missing 'NaN'\n"
		   "set title \"%s\" noenhanced\n"
		   "set terminal svg size 900,500 noenhanced "
		   "font 'sans,11' background rgb 'white'\n"
		   "set output '%s.svg'\n%s"
		   "set terminal pngcairo size 900,500 noenhanced "
		   "font 'sans,10'\n"
		   "set output '%s.png'\nreplot\nunset output\n",
		k->title, k->name, k->name, k->title, k->name, k->script,
		k->name);
	return fclose(f) ? -1 : 0;
}

/* The data file: false when there is nothing to draw (removed). */
static int write_data(const char *dir, const struct ipx_plot_kind *k,
		      const struct ipx_jv *res)
{
	char path[4096];
	FILE *f;
	bool any;

	snprintf(path, sizeof(path), "%s/%s.dat", dir, k->name);
	f = fopen(path, "w");
	if (!f)
		return -1;
	any = k->data ? k->data(res, f) : ipx_plot_points(k, res, f);
	if (fclose(f) || !any) {
		unlink(path);
		return any ? -1 : 0;
	}
	return 1;
}

/* gnuplot NAME.gp in dir, its messages into NAME.log: 0 or -1. */
static int run_gnuplot(const char *gp, const char *dir, const char *name)
{
	struct timespec nap = { 0, 20 * 1000 * 1000 };
	char script[512], log[512];
	double waited = 0;
	int st;
	pid_t pid;

	snprintf(script, sizeof(script), "%s.gp", name);
	snprintf(log, sizeof(log), "%s.log", name);
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		if (chdir(dir) || !freopen(log, "w", stderr) ||
		    !freopen("/dev/null", "w", stdout))
			_exit(126);
		execl(gp, "gnuplot", script, (char *)NULL);
		_exit(127);
	}
	while (waitpid(pid, &st, WNOHANG) == 0) {
		if (waited > GNUPLOT_TIMEOUT) {
			kill(pid, SIGKILL);
			waitpid(pid, &st, 0);
			return -1;
		}
		nanosleep(&nap, NULL);
		waited += 0.02;
	}
	return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : -1;
}

/* Did gnuplot leave a non-empty NAME.EXT? */
static bool drawn(const char *dir, const char *name, const char *ext)
{
	char path[4096];
	struct stat sb;

	snprintf(path, sizeof(path), "%s/%s.%s", dir, name, ext);
	return !stat(path, &sb) && sb.st_size > 0;
}

int ipx_plot_result(const struct ipx_jv *doc, const char *dir, char *note,
		    size_t notelen)
{
	const struct ipx_jv *res;
	const struct ipx_suite_bench *b = ipx_suite_of(doc, &res);
	char gpbuf[4096];
	const char *gp = ipx_plot_gnuplot(gpbuf, sizeof(gpbuf));
	int n = 0;

	note[0] = '\0';
	if (!b) {
		snprintf(note, notelen, "not the result of a benchmark of the "
					"suite (no known \"benchmark\")");
		return -1;
	}
	if (mkdir(dir, 0777) && errno != EEXIST) {
		snprintf(note, notelen, "%s: %s", dir, strerror(errno));
		return -1;
	}
	for (const struct ipx_plot_kind *k = b->plots; k->name; k++) {
		int d = write_data(dir, k, res);

		if (d < 0 || write_script(dir, k) < 0) {
			snprintf(note, notelen, "%s: cannot write %s's files",
				 dir, k->name);
			return -1;
		}
		if (d == 0 || !gp)
			continue;
		if (run_gnuplot(gp, dir, k->name) < 0 ||
		    !drawn(dir, k->name, "svg") || !drawn(dir, k->name, "png")) {
			snprintf(note, notelen, "gnuplot failed on %s/%s.gp "
				 "(its messages: %s/%s.log)", dir, k->name,
				 dir, k->name);
			return -1;
		}
		n++;
	}
	if (!gp) {
		snprintf(note, notelen, "gnuplot not found (install Debian's "
			 "gnuplot-nox: scripts/install-deps.sh): no plots "
			 "drawn; the scripts and data are in %s", dir);
		return -1;
	}
	return n;
}
