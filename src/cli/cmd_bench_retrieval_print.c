/*
 * cmd_bench_retrieval_print.c - B8's text tables (bench retrieval, with or
 * without --period): per configuration its times, images kB/s and server
 * CPU, the ranking beside the note's, the server's CPU against time, and
 * each workstation's first and last retrieval.
 */
#include <stdio.h>

#include "cmd_bench_retrieval.h"
#include "ipxlab/bench_cpu.h"

#define SERIES_COLUMNS 60

static void print_summary(const struct b8 *p)
{
	printf("\n%-16s %-5s %8s %8s %8s %8s %8s %10s %9s %9s %4s\n",
	       "configuration", "note", "total s", "lag s", "min s",
	       "median s", "max s", "images", "CPU base", "CPU peak", "rank");
	printf("%-16s %-5s %8s %8s %8s %8s %8s %10s %9s %9s\n", "", "", "", "",
	       "", "", "", "kB/s", "%", "%");
	for (unsigned k = 0; k < IPX_B8_CONFIGS; k++) {
		const struct ipx_b8_result *x = &p->rep.r[k];
		const struct ipx_b8_config *c = ipx_b8_config(k);

		if (!p->only[k] || x->status == IPX_B8_NOT_RUN)
			continue;
		if (x->status != IPX_B8_MEASURED) {
			printf("%-16s %-5s %s\n", c->name, c->note,
			       ipx_b8_status_name(x->status));
			continue;
		}
		printf("%-16s %-5s %8.2f %8.3f %8.2f %8.2f %8.2f %10.1f ",
		       c->name, c->note, x->total_s, x->lag_s, x->min_s,
		       x->median_s, x->max_s,
		       (double)x->image_bytes / 1000.0 / x->total_s);
		if (x->cpu_measured)
			printf("%9.1f %9.1f", x->cpu_base, x->cpu_peak);
		else
			printf("%9s %9s", "-", "-");
		printf(" %4u\n", ipx_b8_place(&p->rep, k));
	}
}

static void print_ranking(const struct b8 *p)
{
	unsigned order[IPX_B8_CONFIGS], n = ipx_b8_rank(&p->rep, order);

	printf("\nranking (total time; equal: the lower CPU baseline):");
	for (unsigned i = 0; i < n; i++)
		printf("%s %u %s (%s)", i ? "," : "", i + 1,
		       ipx_b8_config(order[i])->name,
		       ipx_b8_config(order[i])->note);
	printf("%s\n", n ? "" : " none measured");
	printf("the 1990 note's ranking (client/driver bits): 1 32/32, "
	       "2 32/16, 3 16/16, 4 16/32;\n"
	       "  its server CPU baseline about %.0f %% straight (16/16, "
	       "32/32), about %.0f %% hybrids\n",
	       IPX_B8_PUBLISHED_STRAIGHT_PCT, IPX_B8_PUBLISHED_HYBRID_PCT);
}

/* Each column the mean of a run of samples, 0-9 tens of percent, '*'
 * 100 % or more (of one CPU). */
static void print_series(const struct ipx_b8_result *x, const char *name)
{
	size_t per = (x->ncpu + SERIES_COLUMNS - 1) / SERIES_COLUMNS;

	printf("%-16s |", name);
	for (size_t j = 0; j < x->ncpu; j += per) {
		double sum = 0;
		size_t m = 0;

		for (; m < per && j + m < x->ncpu; m++)
			sum += x->cpu[j + m];
		sum /= (double)m;
		putchar(sum >= 100 ? '*' : '0' + (int)(sum / 10));
	}
	printf("| %.1f s, %zu sample%s per column\n",
	       (double)x->ncpu * IPX_CPU_INTERVAL / IPX_SEC, per,
	       per == 1 ? "" : "s");
}

static void print_workstations(const struct b8 *p)
{
	printf("\n%-4s", "ws");
	for (unsigned k = 0; k < IPX_B8_CONFIGS; k++)
		if (p->rep.r[k].status == IPX_B8_MEASURED)
			printf("  %16s", ipx_b8_config(k)->name);
	printf("\n%-4s", "");
	for (unsigned k = 0; k < IPX_B8_CONFIGS; k++)
		if (p->rep.r[k].status == IPX_B8_MEASURED)
			printf("  %16s", "first s / done s");
	printf("\n");
	for (unsigned i = 0; i < p->n; i++) {
		printf("%-4u", i + 1);
		for (unsigned k = 0; k < IPX_B8_CONFIGS; k++)
			if (p->rep.r[k].status == IPX_B8_MEASURED)
				printf("  %7.3f %8.2f", p->rep.r[k].ws[i].first_s,
				       p->rep.r[k].ws[i].done_s);
		printf("\n");
	}
}

/* Everything after the conditions: the tables, the series. */
void b8_print_body(const struct b8 *p)
{
	printf("# server CPU: %s, every 100 ms, %% of one CPU\n",
	       ipx_b8_cpu_source(&p->rep));
	print_summary(p);
	print_ranking(p);
	printf("\nserver CPU against time (0-9: tens of %%):\n");
	for (unsigned k = 0; k < IPX_B8_CONFIGS; k++)
		if (p->rep.r[k].status == IPX_B8_MEASURED &&
		    p->rep.r[k].cpu_measured)
			print_series(&p->rep.r[k], ipx_b8_config(k)->name);
	print_workstations(p);
	printf("kB = 1000 bytes of images; lag: start to the first retrieval's "
	       "end; done: the last.\n");
}

