/*
 * b9_fidelity.c - B9's fidelity table (bench_b9.h, ipx_b9_fidelity): the
 * 1990 note's figures that B9 measures, each beside the same figure of a
 * --period run and of today's (`--sim`, the wire alone), in one table of
 * kB/s (1000 bytes; the note's KB/s converted) and percent changes
 * (docs/fidelity-b9.md says which workload stands for which figure).
 */
#include <math.h>
#include <stdio.h>

#include "ipxlab/bench_b9.h"

/* The NetBIOS workloads: LAN Manager's transport. */
static const unsigned nb_loads[] = { 0, 1, 6, 7 };
#define NB_RD1 0
#define NB_WR1 1
#define NB_RD6 6
#define NB_WR6 7

/* The change of one parameter from one value to another on workload w
 * (NAN when a report has none). */
static double change(const struct ipx_b9_report *r, enum ipx_b9_param p,
		     uint32_t from, uint32_t to, unsigned w)
{
	struct ipx_b9_change c = { .from_p = p, .to_p = p, .from_v = from,
				   .to_v = to };

	return r ? ipx_b9_change_pct(r, &c, w) : NAN;
}

/* Its mean over the NetBIOS workloads (NAN unless all are measured). */
static double nb_mean(const struct ipx_b9_report *r, enum ipx_b9_param p,
		      uint32_t from, uint32_t to)
{
	double sum = 0;
	const unsigned n = sizeof(nb_loads) / sizeof(nb_loads[0]);

	for (unsigned i = 0; i < n; i++)
		sum += change(r, p, from, to, nb_loads[i]);
	return sum / n;
}

static double base_kbs(const struct ipx_b9_report *r, unsigned w)
{
	int b = r ? ipx_b9_find(r, IPX_B9_BASE, 0) : -1;

	return b >= 0 && r->pt[b][w].done ? r->pt[b][w].kbs : NAN;
}

/* Six workstations: the note does not say reading or writing; the mean
 * of the two. */
static double six(const struct ipx_b9_report *r)
{
	return (base_kbs(r, NB_RD6) + base_kbs(r, NB_WR6)) / 2;
}

static double ceiling_kbs(const struct ipx_b9_report *r)
{
	return r && r->ceiling.done ? r->ceiling.kbs : NAN;
}

void ipx_b9_fidelity(const struct ipx_b9_report *rep,
		     const struct ipx_b9_report *today,
		     const struct ipx_b9_fid_runs *fr,
		     struct ipx_fid_table *out)
{
	const struct ipx_b9_report *t = today;
	double mca = fr && fr->isa_kbs > 0
			     ? (fr->mca_kbs / fr->isa_kbs - 1) * 100
			     : NAN;

	ipx_fid_init(out, "B9: LAN Manager tuning on 16/4 Token-Ring",
		     "kB/s or %", rep->o.period ? rep->o.period->name : "");
	snprintf(out->today_what, sizeof(out->today_what),
		 "the wire alone (--sim), the default adapter");
	ipx_fid_add(out, "ceiling, kB/s", IPX_B9_PUB_CEILING_KBS,
		    ceiling_kbs(rep), ceiling_kbs(t));
	ipx_fid_add(out, "6 ws nb rd+wr mean, kB/s", IPX_B9_PUB_SIX_KBS,
		    six(rep), six(t));
	ipx_fid_add_range(out, "tx 256->1K nb, %", 36, 153,
			  nb_mean(rep, IPX_B9_TX_SIZE, 256, 1024),
			  nb_mean(t, IPX_B9_TX_SIZE, 256, 1024));
	ipx_fid_add(out, "tx 1K->2K nb, %", 16,
		    nb_mean(rep, IPX_B9_TX_SIZE, 1024, 2048),
		    nb_mean(t, IPX_B9_TX_SIZE, 1024, 2048));
	ipx_fid_add(out, "tx 2K->4K nb, %", 0,
		    nb_mean(rep, IPX_B9_TX_SIZE, 2048, 4096),
		    nb_mean(t, IPX_B9_TX_SIZE, 2048, 4096));
	ipx_fid_add_range(out, "2 tx buffers nb rd6, %", 13, 18,
			  change(rep, IPX_B9_TX_BUFS, 1, 2, NB_RD6),
			  change(t, IPX_B9_TX_BUFS, 1, 2, NB_RD6));
	ipx_fid_add_range(out, "rx ws 2K nb wr1, %", -9, -8,
			  change(rep, IPX_B9_RX_WS, 1024, 2048, NB_WR1),
			  change(t, IPX_B9_RX_WS, 1024, 2048, NB_WR1));
	ipx_fid_add_range(out, "rx ws 2K nb rd1, %", 7, 9,
			  change(rep, IPX_B9_RX_WS, 1024, 2048, NB_RD1),
			  change(t, IPX_B9_RX_WS, 1024, 2048, NB_RD1));
	ipx_fid_add(out, "MCA server 6 ws, %", 56, mca, NAN);
}
