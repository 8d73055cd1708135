/*
 * cmd_protocols_text.c - "ipxlab bench protocols": the text table (the
 * 1990 reference beside ours, the targets, the notes) and the progress
 * line. JSON and CSV are the library's (src/bench/b1_write.c).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cmd_protocols.h"

/* ---- printing ---- */

/* 1234567.8 -> "1,234,568" */
static const char *grouped(double v, char *buf, size_t len)
{
	char raw[32];
	size_t n, o = 0;

	snprintf(raw, sizeof(raw), "%.0f", v < 0 || !isfinite(v) ? 0 : v);
	n = strlen(raw);
	for (size_t i = 0; i < n && o + 2 < len; i++) {
		if (i && (n - i) % 3 == 0)
			buf[o++] = ',';
		buf[o++] = raw[i];
	}
	buf[o] = '\0';
	return buf;
}

/* Nanoseconds as microseconds, two digits below 10 us. */
static const char *us(uint64_t ns, char *buf, size_t len)
{
	snprintf(buf, len, ns < 10000 ? "%.2f" : "%.0f", ns / 1e3);
	return buf;
}

/* After the table: why the rows differ, the targets, the columns. */
static void print_notes(const struct ipx_b1_report *rep, bool eth)
{
	printf("\nwhy the rows differ (the 1990 note: everything is built on "
	       "IPX):\n");
	for (int i = 0; i < IPX_B1_ROWS; i++)
		printf("  %-17s %s\n", ipx_b1_row_name(ipx_b1_rows[i], eth),
		       ipx_b1_row_why(ipx_b1_rows[i], eth));
	printf("\ntargets (median of the per-run ratios, this run):\n");
	for (int t = 0; t < IPX_B1_TARGETS; t++) {
		const struct ipx_b1_target *x = &rep->target[t];

		printf("  %-15s %5.2f [%.2f - %.2f]  want >= %.2f  %-4s  %s\n",
		       ipx_b1_target_name(rep, t, eth), x->ratio.median, x->ratio.min,
		       x->ratio.max, x->want, x->pass ? "PASS" : "MISS",
		       ipx_b1_target_what(rep, t, eth));
	}
	printf("\ncarried/s: packets the path carried per second (sent/s "
	       "times delivered/sent, at most the\nreceiver's rate); kB/s "
	       "and x IPX use it too (kB = 1000 bytes). sent/s: sends "
	       "completed\nper second. CPUs: where the sender/receiver ran "
	       "(last run).\n");
}

void protocols_print_table(const struct run_ctx *r,
			   const struct ipx_b1_report *rep)
{
	const struct ipx_b1_row *rtt = &rep->row[IPX_BW_RTT];
	const struct ipx_hctl_agent *s = ipx_hctl_agent_at(r->n.ctl, 0);
	const struct ipx_hctl_agent *d = ipx_hctl_agent_at(r->n.ctl, 1);
	char a[32], b[32], c[32];

	printf("ipxlab bench protocols (B1): ");
	if (r->o.count)
		printf("%u", r->o.count);
	else
		printf("%g s of", r->o.seconds);
	printf(" packets of %zu bytes per interface; median of %u run%s "
	       "[min - max] after 1 warm-up\n",
	       r->o.size, rep->repeat, rep->repeat == 1 ? "" : "s");
	printf("sender '%s' (pid %u, %u CPU%s), receiver '%s' (pid %u, %u "
	       "CPU%s), %s %s",
	       s->name, s->pid, s->cpus, s->cpus == 1 ? "" : "s", d->name,
	       d->pid, d->cpus, d->cpus == 1 ? "" : "s",
	       r->link ? "link" : "hub", r->n.hubtext);
	if (r->n.hub_cpu >= 0)
		printf(" (CPU %d)", r->n.hub_cpu);
	printf(", --pin %s%s\n\n", ipx_b1_pin_name(r->o.pin),
	       r->n.pin_fallback ? " (split needs 2 CPUs per agent)" : "");
	printf("%-17s %9s %-21s %9s %11s %6s %9s %5s | %8s %5s | %13s %5s\n",
	       "interface", "carried/s", "[min - max]", "sent/s", "delivered",
	       "loss", "kB/s", "x IPX", "1990", "x IPX", "send p50/p99us",
	       "CPUs");
	for (int i = 0; i < IPX_B1_ROWS; i++) {
		const struct ipx_b1_row *w = &rep->row[ipx_b1_rows[i]];
		char rng[80], del[32], ref[16], rr[16], lat[80], cpu[32];
		char snt[32];

		snprintf(rng, sizeof(rng), "[%s - %s]",
			 grouped(w->carried.min, a, sizeof(a)),
			 grouped(w->carried.max, b, sizeof(b)));
		snprintf(del, sizeof(del), "%.0f/%.0f", w->delivered.median,
			 w->sent.median);
		if (w->ref_pps > 0) {
			snprintf(ref, sizeof(ref), "%.1f", w->ref_pps);
			snprintf(rr, sizeof(rr), "%.2f", w->ref_ratio);
		} else {
			strcpy(ref, "-");
			strcpy(rr, "-");
		}
		if (w->lat_count)
			snprintf(lat, sizeof(lat), "%s/%s",
				 us(w->lat_p50, a, sizeof(a)),
				 us(w->lat_p99, b, sizeof(b)));
		else	/* datagrams: a send completes as it is handed on */
			strcpy(lat, "-");
		snprintf(cpu, sizeof(cpu), "%d/%d", w->cpu_snd, w->cpu_rcv);
		grouped(w->pps.median, snt, sizeof(snt));
		printf("%-17s %9s %-21s %9s %11s %5.2f%% %9.1f %5.2f | %8s %5s | "
		       "%13s %5s\n",
		       ipx_b1_row_name(w->kind, r->o.eth),
		       grouped(w->carried.median, c, sizeof(c)), rng, snt, del,
		       w->loss.median * 100, w->kbps.median,
		       w->ratio_ipx.median, ref, rr, lat, cpu);
	}
	printf("%-17s %9s round trips/s [%s - %s]; per round trip p50 %.1f "
	       "us, p99 %.1f us\n",
	       ipx_b1_row_name(IPX_BW_RTT, r->o.eth), grouped(rtt->pps.median, a, sizeof(a)),
	       grouped(rtt->pps.min, b, sizeof(b)),
	       grouped(rtt->pps.max, c, sizeof(c)), rtt->lat_p50 / 1e3,
	       rtt->lat_p99 / 1e3);
	print_notes(rep, r->o.eth);
}

