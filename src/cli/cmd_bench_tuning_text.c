/*
 * cmd_bench_tuning_text.c - the text table of "ipxlab bench tuning"
 * (cmd_bench_tuning.c): one row per step, the changes beside the 1990
 * note's, the wire ceiling, six workstations and, on a period, the
 * fidelity table.
 */
#include <math.h>
#include <stdio.h>
#include <unistd.h>

#include "cli.h"
#include "cmd_bench_tuning.h"

static void print_runs(const struct ipx_b9_report *r)
{
	char name[48];

	printf("%-14s %7s %7s %7s %7s %7s %7s %7s %7s  %s\n", "kB/s",
	       "nb rd1", "nb wr1", "ncp rd1", "ncp wr1", "ncp rd6", "ncp wr6",
	       "nb rd6", "nb wr6", "largest frame ws/srv (bytes)");
	for (size_t i = 0; i < r->ncfg; i++) {
		const struct ipx_b9_point *pt = r->pt[i];
		uint32_t up = 0, down = 0;

		ipx_b9_config_name(&r->cfg[i], name, sizeof(name));
		printf("%-14s", name);
		for (unsigned w = 0; w < IPX_B9_WORKLOADS; w++) {
			if (pt[w].done)
				printf(" %7.1f", pt[w].kbs);
			else
				printf(" %7s", pt[w].skipped ? "n/a" : "-");
			if (pt[w].frame_up > up)
				up = pt[w].frame_up;
			if (pt[w].frame_down > down)
				down = pt[w].frame_down;
		}
		printf("  %u/%u\n", up, down);
	}
}

static void print_changes(const struct ipx_b9_report *r)
{
	printf("\n%-18s %7s %7s %7s %7s %7s %7s %7s %7s  %s\n", "change (%)",
	       "nb rd1", "nb wr1", "ncp rd1", "ncp wr1", "ncp rd6", "ncp wr6",
	       "nb rd6", "nb wr6", "1990 (LAN Manager, NetBEUI)");
	for (size_t i = 0; i < IPX_B9_CHANGES; i++) {
		const struct ipx_b9_change *c = &ipx_b9_changes[i];

		printf("%-18s", c->step);
		for (unsigned w = 0; w < IPX_B9_WORKLOADS; w++) {
			double p = ipx_b9_change_pct(r, c, w);

			if (isnan(p))
				printf(" %7s", "-");
			else	/* no "-0.0" */
				printf(" %+7.1f", fabs(p) < 0.05 ? 0.0 : p);
		}
		printf("  %s\n", *c->pub_note ? c->pub_note : "-");
	}
}

void bench_tuning_print(const struct tuning *t)
{
	const struct ipx_b9_report *r = &t->rep;
	const struct ipx_adapter *b = &t->o.base;
	const struct ipx_b9_ceiling *c = &r->ceiling;
	int base = ipx_b9_find(r, IPX_B9_BASE, 0);
	char m[200];

	printf("B9 buffer and frame-size tuning on %s, %.1f s per test%s%s%s\n",
	       t->o.profile.name, t->o.seconds,
	       t->o.sim ? ", simulated time" : ", real time",
	       t->have_period ? ", period " : "",
	       t->have_period ? t->period.name : "");
	printf("# ipxlab %s on %s, %ld CPUs online\n", cli_version_text(),
	       cli_machine_text(m, sizeof(m)), sysconf(_SC_NPROCESSORS_ONLN));
	printf("# baseline adapter%s: %u bytes of memory, %u transmit "
	       "buffer%s of %u, receive buffers of %u, copies at %.1f "
	       "Mbit/s, %.0f us per receive buffer\n",
	       t->o.base_srv.memory ? " (workstations)" : "", b->memory,
	       b->tx_buffers, b->tx_buffers == 1 ? "" : "s", b->tx_size,
	       b->rx_size, b->copy_rate / 1e6, b->rx_cost_ns / 1e3);
	if (t->o.base_srv.memory) {
		b = &t->o.base_srv;
		printf("# baseline adapter (server): %u bytes of memory, %u "
		       "transmit buffer%s of %u, receive buffers of %u, copies "
		       "at %.1f Mbit/s, %.0f us per receive buffer\n",
		       b->memory, b->tx_buffers, b->tx_buffers == 1 ? "" : "s",
		       b->tx_size, b->rx_size, b->copy_rate / 1e6,
		       b->rx_cost_ns / 1e3);
	}
	print_runs(r);
	print_changes(r);
	if (c->done)
		printf("\nwire ceiling: back-to-back %u-byte frames %.1f kB/s "
		       "(%.3f ms a frame; the wire alone %.1f) | 1990: %.1f "
		       "kB/s, one every 3 ms (%.0f KB/s as published, its KB "
		       "1,024 bytes)\n",
		       IPX_B9_CEILING_FRAME, c->kbs, c->frame_ms, c->wire_kbs,
		       IPX_B9_PUB_CEILING_KBS, IPX_B9_PUB_CEILING_KBS_NOTE);
	else
		printf("\nwire ceiling: not measured (the baseline's frames "
		       "are under %u bytes) | 1990: %.1f kB/s (%.0f KB/s as "
		       "published)\n",
		       IPX_B9_CEILING_FRAME, IPX_B9_PUB_CEILING_KBS,
		       IPX_B9_PUB_CEILING_KBS_NOTE);
	if (base >= 0)
		printf("six workstations together: NetBIOS reads %.1f, "
		       "writes %.1f kB/s; NCP reads %.1f, writes %.1f kB/s | "
		       "1990 (LAN Manager): %.1f kB/s (%.0f KB/s as "
		       "published)\n",
		       r->pt[base][6].kbs, r->pt[base][7].kbs,
		       r->pt[base][4].kbs, r->pt[base][5].kbs,
		       IPX_B9_PUB_SIX_KBS, IPX_B9_PUB_SIX_KBS_NOTE);
	printf("n/a: NCP needs IPX packets of %u bytes (a 512-byte buffer); "
	       "the 1990 figures are LAN Manager's over NetBEUI.\n",
	       IPX_B9_NCP_MIN_IPX);
	if (r->have_fid) {
		printf("\n");
		ipx_fid_print(stdout, &r->fid);
		printf("MCA server: the baseline's nb rd6 and wr6, their mean "
		       "with the server %s %.1f kB/s against %s %.1f kB/s\n",
		       r->fr.mca, r->fr.mca_kbs, r->fr.isa, r->fr.isa_kbs);
	}
}

