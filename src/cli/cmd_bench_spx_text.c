/*
 * cmd_bench_spx_text.c - the table "ipxlab bench spx" prints: each run's
 * rows as they finish, then the summary over the runs (the figures from
 * ipx_spxb_spread, src/bench/spx.c). JSON and CSV are the library's
 * (src/bench/spx_write.c).
 */
#include <stdio.h>

#include "bench_common.h"
#include "cli.h"
#include "cmd_bench_spx.h"
#include "ipxlab/bench.h"

void bench_spx_print_row(int run, const struct ipx_spxb_result *r,
			   const ipx_spxb_rows *all, bool verbose)
{
	char pps[32];

	printf("%3d  %-3s  %-9s %6zu %7zu %9.1f %9s %6.2f", run,
	       ipx_spxb_link_name(r->link), ipx_spxb_kind_name(r->kind),
	       r->packet, r->payload, r->goodput / 1e6,
	       bench_grouped(r->pps, pps, sizeof(pps)), ipx_spxb_other(r));
	if (r->kind == IPX_SPXB_SPX1 || r->kind == IPX_SPXB_SPX2) {
		const struct ipx_spxb_result *b =
			ipx_spxb_base(all, r->link, r->kind);

		if (b->goodput > 0)
			printf("  %.2f of %s", ipx_spxb_ratio(r, b),
			       ipx_spxb_kind_name(b->kind));
		if (r->kind == IPX_SPXB_SPX1 &&
		    r->srtt_us >= IPX_SPXB_MIN_SRTT_US)
			printf("; srtt %.0f us allows %.1f MB/s", r->srtt_us,
			       ipx_spxb_rtt_bound(r) / 1e6);
		else if (r->kind == IPX_SPXB_SPX1 && r->pps > 0)
			printf("; srtt %.0f us, %.2f us per packet",
			       r->srtt_us, 1e6 / r->pps);
		if (r->kind == IPX_SPXB_SPX2)
			printf("; window %u", r->window);
		if (r->retransmits)
			printf("; %llu retransmits",
			       (unsigned long long)r->retransmits);
	}
	printf("\n");
	if (verbose) {
		printf("                 cpu: sender %.0f%%", r->cpu_sender * 100);
		if (r->link == IPX_SPXB_UDP)
			printf(", hub %.0f%%, receiver %.0f%%",
			       r->cpu_hub * 100, r->cpu_receiver * 100);
		else
			printf(" (both nodes: one process)");
		printf("; machine busy %.2f CPUs, other work %.2f\n",
		       r->machine_busy, ipx_spxb_other(r));
		if (r->version && r->link == IPX_SPXB_UDP)
			/* what the agent's RESULT has of its connection */
			printf("                 SPX %s: %llu messages sent "
			       "and acknowledged, %llu retransmits; srtt %.0f "
			       "us\n",
			       r->version == 2 ? "II" : "I",
			       (unsigned long long)r->tx_data,
			       (unsigned long long)r->retransmits, r->srtt_us);
		else if (r->version)
			printf("                 SPX %s: %llu data packets "
			       "sent, %llu retransmits, %llu timeouts, %llu "
			       "NAKs and %llu ACKs in; srtt %.0f us (%llu "
			       "samples), rto %.0f us\n",
			       r->version == 2 ? "II" : "I",
			       (unsigned long long)r->tx_data,
			       (unsigned long long)r->retransmits,
			       (unsigned long long)r->timeouts,
			       (unsigned long long)r->naks_rx,
			       (unsigned long long)r->acks_rx, r->srtt_us,
			       (unsigned long long)r->rtt_samples, r->rto_us);
		else
			printf("                 IPX: window %u datagrams; sent "
			       "%llu, delivered %llu over the whole run\n",
			       r->window, (unsigned long long)r->sent,
			       (unsigned long long)r->delivered);
	}
	fflush(stdout);
}

static void summary_table(const struct spx_cli *c,
			  const struct ipx_spxb_report *rep)
{
	double mb = 1e-6;

	printf("\nsummary, %lu run%s: median [min - max]\n", rep->done,
	       cli_s(rep->done));
	printf("link row       packet payload  goodput MB/s                "
	       "ratio to IPX of the same packet size\n");
	for (int l = 0; l < IPX_SPXB_LINKS; l++) {
		for (int k = 0; c->o.links[l] && k < IPX_SPXB_KINDS; k++) {
			const struct ipx_spxb_result *r0 = &rep->runs[0][l][k];
			const struct ipx_stat_summary *q = &rep->ratio[l][k];
			struct ipx_stat_summary g;
			char rng[40];

			ipx_spxb_spread(rep, (enum ipx_spxb_link)l,
					(enum ipx_spxb_kind)k, ipx_spxb_fig_goodput, &mb,
					&g);
			snprintf(rng, sizeof(rng), "[%.1f - %.1f]", g.min,
				 g.max);
			printf("%-4s %-9s %6zu %7zu %8.1f %-17s",
			       ipx_spxb_link_name((enum ipx_spxb_link)l),
			       ipx_spxb_kind_name((enum ipx_spxb_kind)k),
			       r0->packet, r0->payload, g.median, rng);
			if (k == IPX_SPXB_SPX1 || k == IPX_SPXB_SPX2)
				printf(" %.2f [%.2f - %.2f] of %s", q->median,
				       q->min, q->max,
				       k == IPX_SPXB_SPX1 ? "ipx-small"
							  : "ipx-large");
			printf("\n");
		}
	}
	printf("\n");
}

/* SPX I's round trip and SPX II's verdict on one link. */
static void summary_link(const struct ipx_spxb_report *rep,
			 enum ipx_spxb_link l)
{
	const struct ipx_spxb_result *s2 = &rep->runs[0][l][IPX_SPXB_SPX2];
	const struct ipx_spxb_result *il = &rep->runs[0][l][IPX_SPXB_IPX_LARGE];
	struct ipx_stat_summary rtt, bound, reach, cycle;
	double mb = 1e-6;

	ipx_spxb_spread(rep, l, IPX_SPXB_SPX1, ipx_spxb_fig_srtt, NULL, &rtt);
	ipx_spxb_spread(rep, l, IPX_SPXB_SPX1, ipx_spxb_fig_bound, &mb, &bound);
	ipx_spxb_spread(rep, l, IPX_SPXB_SPX1, ipx_spxb_fig_reach, NULL, &reach);
	ipx_spxb_spread(rep, l, IPX_SPXB_SPX1, ipx_spxb_fig_us_per_packet, NULL, &cycle);
	printf("%s: SPX I is bounded by its round trip: one %zu-byte "
	       "packet, then wait for its ACK.\n",
	       ipx_spxb_link_name(l), rep->runs[0][l][IPX_SPXB_SPX1].payload);
	if (rtt.min >= IPX_SPXB_MIN_SRTT_US)
		printf("     srtt %.0f us [%.0f - %.0f] allows %.1f "
		       "MB/s; SPX I reached %.0f%% of that "
		       "(%.1f us per packet).\n",
		       rtt.median, rtt.min, rtt.max, bound.median,
		       reach.median * 100, cycle.median);
	else
		printf("     The round trip (srtt %.0f us) is too short "
		       "for srtt's 1-us resolution: here it\n"
		       "     is the CPU time of a data packet and its "
		       "ACK, %.2f us per packet [%.2f - %.2f].\n",
		       rtt.median, cycle.median, cycle.min, cycle.max);
	if (s2->packet != il->packet)
		printf("     note: SPX II negotiated %zu-byte packets, "
		       "not the %zu of the ipx-large row.\n",
		       s2->packet, il->packet);
	printf("     SPX II / IPX datagrams at %zu-byte packets: "
	       "%.2f (median); target >= %.2f: %s\n",
	       il->packet, rep->ratio[l][IPX_SPXB_SPX2].median,
	       IPX_SPXB_TARGET_RATIO, rep->met[l] ? "PASS" : "MISS");
}

void bench_spx_print_summary(const struct spx_cli *c,
			  const struct ipx_spxb_report *rep)
{
	double most = 0;

	summary_table(c, rep);
	for (int l = 0; l < IPX_SPXB_LINKS; l++)
		if (c->o.links[l])
			summary_link(rep, (enum ipx_spxb_link)l);
	for (unsigned long i = 0; i < rep->done; i++)
		for (int l = 0; l < IPX_SPXB_LINKS; l++)
			for (int k = 0; c->o.links[l] && k < IPX_SPXB_KINDS;
			     k++)
				if (ipx_spxb_other(&rep->runs[i][l][k]) > most)
					most = ipx_spxb_other(&rep->runs[i][l][k]);
	if (most >= 0.25)
		printf("note: other work kept up to %.2f of the %d "
		       "CPUs busy during the windows (column "
		       "'other');\n      these figures are lower and "
		       "noisier than on an idle machine.\n",
		       most, ipx_bench_cpus_online());
}
