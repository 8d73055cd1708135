/*
 * b1_sim_write.c - B1 in simulated time (bench_b1sim.h) as text and as
 * JSON: one row per interface (packets/s, sent, delivered, the 1990
 * figure), then the fidelity table of a --period run.
 */
#include "ipxlab/bench_b1sim.h"

#include "ipxlab/bench_b1.h"
#include "ipxlab/bench_result.h"

static const char *row_name(enum ipx_bw_kind k)
{
	return ipx_b1_row_name(k, false);
}

void ipx_b1sim_print(FILE *out, const struct ipx_b1sim_report *rep,
		     const struct ipx_fid_table *fid)
{
	bool host = rep->period[0] != '\0';

	fprintf(out,
		"B1 protocol comparison, simulated time: %u packets of %zu "
		"bytes per interface\n"
		"wire %s, %s, seed %llu\n\n",
		rep->count, rep->size, rep->profile,
		host ? "both nodes on the period's station machine"
		     : "the wire alone (no machines)",
		(unsigned long long)rep->seed);
	if (host)
		fprintf(out, "period %s\n\n", rep->period);
	fprintf(out, "%-18s %9s %7s %9s %9s%s\n", "interface", "pkt/s",
		"sent", "delivered", "1990", host ? "  cpu us/pkt snd rcv" : "");
	for (unsigned i = 0; i < IPX_B1SIM_ROWS; i++) {
		const struct ipx_b1sim_row *r = &rep->row[i];

		fprintf(out, "%-18s %9.1f %7llu %9llu %9.1f", row_name(r->kind),
			r->pps, (unsigned long long)r->sent,
			(unsigned long long)r->delivered, r->ref_pps);
		if (host)
			fprintf(out, "  %8.0f %8.0f", r->snd_cpu_us,
				r->rcv_cpu_us);
		fputc('\n', out);
	}
	for (unsigned i = 0; i < IPX_B1SIM_ROWS; i++) {
		const struct ipx_b1sim_row *r = &rep->row[i];

		if (r->delivered < r->sent)
			fprintf(out, "%s: the receiver counted %llu of %llu "
				     "(%llu dropped for want of receive "
				     "buffers)\n",
				row_name(r->kind),
				(unsigned long long)r->delivered,
				(unsigned long long)r->sent,
				(unsigned long long)r->rx_no_buffer);
	}
	fprintf(out, "\nA datagram send completes when its frame has left the "
		     "sender's adapter;\na session send when its "
		     "acknowledgement is back (stop-and-wait).\n");
	if (fid) {
		fputc('\n', out);
		ipx_fid_print(out, fid);
	}
}

void ipx_b1sim_write_json(FILE *out, const struct ipx_b1sim_report *rep,
			  const struct ipx_fid_table *fid)
{
	struct ipx_jw w;

	ipx_jw_init(&w, out);
	ipx_jw_obj(&w, NULL);
	ipx_jw_str(&w, "benchmark", "protocols");
	ipx_jw_str(&w, "spec", "B1");
	ipx_jw_str(&w, "mode", "sim");
	ipx_jw_bool(&w, "complete", true);
	ipx_jw_str(&w, "profile", rep->profile);
	if (rep->period[0])
		ipx_jw_str(&w, "period", rep->period);
	else
		ipx_jw_null(&w, "period");
	ipx_jw_u64(&w, "seed", rep->seed);
	ipx_jw_u64(&w, "count", rep->count);
	ipx_jw_u64(&w, "size", rep->size);
	ipx_jw_arr(&w, "rows");
	for (unsigned i = 0; i < IPX_B1SIM_ROWS; i++) {
		const struct ipx_b1sim_row *r = &rep->row[i];

		ipx_jw_obj(&w, NULL);
		ipx_jw_str(&w, "kind", ipx_bw_kind_name(r->kind));
		ipx_jw_str(&w, "name", row_name(r->kind));
		ipx_jw_dbl(&w, "pps", "%.3f", r->pps);
		ipx_jw_u64(&w, "sent", r->sent);
		ipx_jw_u64(&w, "delivered", r->delivered);
		ipx_jw_u64(&w, "rx_no_buffer", r->rx_no_buffer);
		ipx_jw_u64(&w, "retransmits", r->retransmits);
		ipx_jw_dbl(&w, "seconds", "%.6f", r->seconds);
		ipx_jw_dbl(&w, "ref_pps", "%.1f", r->ref_pps);
		if (rep->period[0]) {
			ipx_jw_dbl(&w, "sender_cpu_us", "%.1f",
				   r->snd_cpu_us);
			ipx_jw_dbl(&w, "receiver_cpu_us", "%.1f",
				   r->rcv_cpu_us);
		}
		ipx_jw_end(&w);
	}
	ipx_jw_end(&w);
	if (fid)
		ipx_fid_write_json(&w, "fidelity", fid);
	ipx_jw_finish(&w);
}
