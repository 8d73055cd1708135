/*
 * b7_curve.c - B7's curve in plain ASCII (bench_b7.h): the total kB/s
 * of each configuration measured against the block size, the smallest
 * block on the left; each configuration draws its own letter at its
 * sizes and between them, '*' where two lines cross.
 */
#include <math.h>
#include <string.h>

#include "ipxlab/bench_b7.h"

#define COL 4			/* characters per block size */
#define WIDTH ((IPX_B7_SIZES - 1) * COL + 1)
#define MAX_ROWS 40
#define LABELS 5		/* steps of the vertical axis */

static const char letters[IPX_B7_CONFIGS] = { 'r', 'R', 'b', 'B' };

/* Size index at column x (smallest block left), and the fraction
 * towards the next larger one. */
static double total_at(const struct ipx_b7_report *rep, unsigned k,
		       unsigned x, bool *have)
{
	unsigned left = x / COL, n = rep->r[k].sizes_done;
	double f = (double)(x % COL) / COL;
	/* size s is at column (15 - s) * COL */
	unsigned s0 = IPX_B7_SIZES - 1 - left, s1 = s0 ? s0 - 1 : 0;

	*have = s0 < n && (f == 0 || s1 < n);
	if (!*have)
		return 0;
	return ipx_b7_total(rep, k, s0) * (1 - f) +
	       (f > 0 ? ipx_b7_total(rep, k, s1) * f : 0);
}

/* A round step: 1, 2 or 5 times a power of ten, at least v. */
static double nice(double v)
{
	double p = pow(10, floor(log10(v)));

	return v <= p ? p : v <= 2 * p ? 2 * p : v <= 5 * p ? 5 * p : 10 * p;
}

/* The vertical range: LABELS round steps around the totals measured,
 * from 0 when the lowest is under half the highest (false: nothing
 * measured). */
static bool range_of(const struct ipx_b7_report *rep, double *lo, double *hi)
{
	double min = INFINITY, max = 0, step;

	for (unsigned k = 0; k < IPX_B7_CONFIGS; k++)
		for (unsigned s = 0; s < rep->r[k].sizes_done; s++) {
			double t = ipx_b7_total(rep, k, s);

			min = t < min ? t : min;
			max = t > max ? t : max;
		}
	if (!(max > 0))
		return false;
	if (min < max / 2)
		min = 0;
	step = nice((max - min > max / 50 ? max - min : max / 50) / LABELS);
	for (;;) {
		*lo = floor(min / step) * step;
		*hi = *lo + LABELS * step;
		if (*hi > max)
			return true;
		step = nice(step * 1.01);
	}
}

static void plot(const struct ipx_b7_report *rep, unsigned rows, double lo,
		 double hi, char grid[MAX_ROWS][WIDTH + 1])
{
	for (unsigned y = 0; y < rows; y++) {
		memset(grid[y], ' ', WIDTH);
		grid[y][WIDTH] = '\0';
	}
	for (unsigned k = 0; k < IPX_B7_CONFIGS; k++) {
		if (rep->r[k].status != IPX_B7_MEASURED)
			continue;
		for (unsigned x = 0; x < WIDTH; x++) {
			bool have;
			double v = total_at(rep, k, x, &have);
			long y = lround((v - lo) / (hi - lo) * (rows - 1));
			char *c;

			if (!have)
				continue;
			if (y < 0)
				y = 0;
			if (y > (long)rows - 1)
				y = rows - 1;
			c = &grid[rows - 1 - y][x];
			*c = *c == ' ' || *c == letters[k] ? letters[k] : '*';
		}
	}
}

static void legend(FILE *out, const struct ipx_b7_report *rep)
{
	for (unsigned k = 0; k < IPX_B7_CONFIGS; k++) {
		if (!rep->o.only[k])
			continue;
		fprintf(out, "        %c %s%s\n", letters[k],
			ipx_b7_config(k)->name,
			rep->r[k].status == IPX_B7_MEASURED
				? ""
				: rep->r[k].status == IPX_B7_NO_BURST
					  ? " (burst not offered)"
					  : " (not run)");
	}
	fprintf(out, "        * two lines at one point\n");
}

void ipx_b7_write_curve(FILE *out, const struct ipx_b7_report *rep,
			unsigned rows)
{
	char grid[MAX_ROWS][WIDTH + 1];
	double lo = 0, hi = 0;
	bool any = range_of(rep, &lo, &hi);

	if (rows < LABELS + 1)
		rows = LABELS + 1;
	if (rows > MAX_ROWS)
		rows = MAX_ROWS;
	fprintf(out, "total kB/s against block size (bytes):\n");
	if (!any) {
		fprintf(out, "  (nothing measured)\n");
		legend(out, rep);
		return;
	}
	plot(rep, rows, lo, hi, grid);
	for (unsigned y = 0; y < rows; y++) {
		double at = lo + (hi - lo) * (rows - 1 - y) / (rows - 1);

		if (y * LABELS % (rows - 1) == 0)
			fprintf(out, "%7.0f |%s\n", at, grid[y]);
		else
			fprintf(out, "        |%s\n", grid[y]);
	}
	fprintf(out, "        +");
	for (unsigned x = 0; x < WIDTH; x++)
		fputc(x % (COL * 5) == 0 ? '+' : '-', out);
	fprintf(out, "\n        ");
	for (unsigned s = IPX_B7_SIZES; s-- > 0;)
		if ((IPX_B7_SIZES - 1 - s) % 5 == 0)
			fprintf(out, "%-*u", s ? COL * 5 : 1, ipx_b7_block(s));
	fprintf(out, "\n");
	legend(out, rep);
}
