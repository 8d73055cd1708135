/*
 * cmd_analyze.c - "ipxlab analyze FILE": the 1990 analyzer's figures from
 * a pcap file written by ipxlab (--pcap, capture -w) or by tcpdump on a
 * link that carries IPX (analyze.h).
 */
#include <getopt.h>
#include <string.h>

#include "cli.h"
#include "ipxlab/analyze.h"
#include "ipxlab/err.h"
#include "ipxlab/ipx.h"

void help_analyze(FILE *out)
{
	fprintf(out,
		"Print what a 1990 LAN analyzer showed: kB/s in each 1 s window\n"
		"(1 kB = 1000 bytes of frames), the peak (the busiest window; a\n"
		"capture shorter than 1 s over its span, never under 0.1 s) and\n"
		"the mean, packets by\n"
		"protocol (IPX, SPX, NCP, NetBIOS, SAP, RIP), and the share of\n"
		"packet arrival gaps in the buckets 0-4, 5-9, 10-14, 15-19, 20-24,\n"
		"25-29 and >=30 ms.\n\n"
		"  --between NODE,NODE only the packets between these two IPX nodes\n"
		"                      (12 hex digits each), either way\n"
		"  --outgoing          count the records a cooked (Linux SLL) capture\n"
		"                      marks as sent by the capturing node too; by\n"
		"                      default left out: a hub's --pcap records\n"
		"                      each packet in and again out\n"
		"  --json              one JSON object instead of text\n"
		"  -h, --help          this text\n");
}

static int parse_node(const char *text, uint8_t node[6])
{
	struct ipx_addr a;
	char buf[64];

	if (strlen(text) > 20)
		return -1;
	snprintf(buf, sizeof(buf), "0:%s:0", text);
	if (ipx_addr_parse(buf, &a) != IPX_OK)
		return -1;
	memcpy(node, a.node, 6);
	return 0;
}

int cmd_analyze(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "between", required_argument, NULL, 'b' },
		{ "json", no_argument, NULL, 'j' },
		{ "outgoing", no_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct ipx_analyze_filter filter = { 0 };
	struct ipx_analyze a;
	bool json = false;
	char err[512];
	int opt, rc;

	optind = 1;
	while ((opt = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (opt) {
		case 'b': {
			char first[32];
			const char *comma = strchr(optarg, ',');

			if (!comma || (size_t)(comma - optarg) >= sizeof(first)) {
				cli_error("analyze", "--between needs NODE,NODE "
						     "(got '%s')",
					  optarg);
				return CLI_USAGE;
			}
			memcpy(first, optarg, (size_t)(comma - optarg));
			first[comma - optarg] = '\0';
			if (parse_node(first, filter.a) < 0 ||
			    parse_node(comma + 1, filter.b) < 0) {
				cli_error("analyze", "--between needs two IPX "
						     "nodes of 12 hex digits "
						     "(got '%s')",
					  optarg);
				return CLI_USAGE;
			}
			filter.conversation = true;
			break;
		}
		case 'j':
			json = true;
			break;
		case 'o':
			filter.outgoing = true;
			break;
		case 'h':
			cli_usage_line(stdout, "analyze");
			help_analyze(stdout);
			return CLI_OK;
		default:
			return cli_bad_option("analyze", argv, "h", longopts);
		}
	}
	if (argc - optind != 1) {
		cli_error("analyze", "give one pcap file");
		return CLI_USAGE;
	}
	ipx_analyze_init(&a, &filter);
	rc = ipx_analyze_file(&a, argv[optind], err, sizeof(err));
	if (rc != IPX_OK) {
		cli_error("analyze", "%s", err);
		ipx_analyze_free(&a);
		return CLI_FAIL;
	}
	if (json)
		ipx_analyze_print_json(&a, stdout);
	else
		ipx_analyze_print(&a, stdout);
	ipx_analyze_free(&a);
	return CLI_OK;
}
