/*
 * cli.h - what the ipxlab subcommands share: the command table, the way
 * every node-running command joins the network, and small helpers.
 */
#ifndef IPXLAB_CLI_H
#define IPXLAB_CLI_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "ipxlab/capture.h"
#include "ipxlab/config.h"
#include "ipxlab/diag.h"
#include "ipxlab/link.h"
#include "ipxlab/loop.h"
#include "ipxlab/node.h"
#include "ipxlab/ping.h"
#include "ipxlab/rip.h"

/* Exit codes. */
enum { CLI_OK = 0, CLI_FAIL = 1, CLI_USAGE = 2 };

struct cli_cmd {
	const char *name;
	const char *args;	/* synopsis after the name */
	const char *summary;	/* one line for the command list */
	int (*run)(int argc, char **argv);
	void (*help)(FILE *out);	/* options, after the synopsis */
};

/* Where "make install" puts the docs (DOCDIR/docs): what help cites. */
extern const char cli_docs[];
/* The command running (for messages from shared code). */
extern const char *cli_current;
/* main.c hands its table over once, before running a command. */
void cli_set_commands(const struct cli_cmd *table);
/* "usage: ipxlab NAME ARGS" of the table's command NAME; nothing if none
 * (version.c). */
void cli_usage_line(FILE *out, const char *name);

/* Options every command that runs a node takes. */
struct cli_node_opts {
	const char *hub;	/* HOST[:PORT]; NULL = $IPXLAB_HUB or default */
	const char *link;	/* --link SPEC instead of --hub, or NULL */
	const char *pcap;	/* --pcap FILE or NULL */
	const char *config;	/* SHELL.CFG path or NULL */
	double register_timeout;	/* seconds */
	/* The node's settings before --config is applied; NULL: defaults. */
	const struct ipx_config *base;
};

#define CLI_NODE_OPTS_HELP                                                   \
	"  --hub HOST[:PORT]   tunnel server to join (default $IPXLAB_HUB or\n" \
	"                      127.0.0.1:213)\n"                                 \
	"  --link eth:IFACE[,frame=TYPE|auto][,net=HEX]\n"                        \
	"                      an Ethernet interface instead (root or\n"        \
	"                      CAP_NET_RAW); frame ethernet_ii, 802.3, 802.2,\n" \
	"                      snap, or auto (default: learn it from the LAN)\n" \
	"  --pcap FILE         write every frame sent and received to FILE\n"   \
	"  --config FILE       SHELL.CFG settings (see 'ipxlab config')\n"       \
	"  --wait SECONDS      how long to wait for the server (default 10)\n"   \
	"  -v, --verbose       more log lines; -q, --quiet fewer\n"

/* Long option values shared by node commands (above any short option). */
enum {
	OPT_HUB = 1000,
	OPT_CONFIG,
	OPT_WAIT,
	OPT_NODE_LINK,
	OPT_PCAP,
	OPT_FIRST_CMD = 1100,	/* commands number their own from here */
};

#define CLI_NODE_LONGOPTS                                         \
	{ "hub", required_argument, NULL, OPT_HUB },              \
	{ "config", required_argument, NULL, OPT_CONFIG },        \
	{ "wait", required_argument, NULL, OPT_WAIT },            \
	{ "link", required_argument, NULL, OPT_NODE_LINK },       \
	{ "pcap", required_argument, NULL, OPT_PCAP },            \
	{ "verbose", no_argument, NULL, 'v' },                    \
	{ "quiet", no_argument, NULL, 'q' },                      \
	{ "help", no_argument, NULL, 'h' }

/* Handle one shared option; returns 1 if it was one, 0 if not, -1 bad. */
int cli_node_opt(struct cli_node_opts *o, const char *cmd, int opt,
		 const char *arg);
void cli_node_opts_init(struct cli_node_opts *o);

/*
 * The option loop of a node command, written once: the node options
 * above, -h (usage line and help on stdout) and a bad option (message,
 * usage line on stderr) are handled here; the command sees only its own.
 *
 *	struct cli_opts o;
 *	cli_opts_init(&o, "diag", "bx:W:vqh", longopts, help_diag);
 *	while ((opt = cli_next_opt(&o, argc, argv)) != CLI_OPTS_END) {
 *		if (opt == CLI_OPTS_EXIT)
 *			return o.rc;
 *		switch (opt) { ... default: return cli_opts_bad(&o, argv); }
 *	}
 */
struct option;
struct cli_opts {
	const char *cmd;		/* for messages and the usage line */
	const char *shortopts;		/* the command's, with "vqh" */
	const struct option *longopts;	/* the command's + CLI_NODE_LONGOPTS */
	void (*help)(FILE *out);
	struct cli_node_opts node;	/* what the node options said */
	int rc;				/* the exit code after CLI_OPTS_EXIT */
};
#define CLI_OPTS_END (-1)	/* no more options: operands from optind */
#define CLI_OPTS_EXIT (-2)	/* stop and return o->rc */
void cli_opts_init(struct cli_opts *o, const char *cmd, const char *shortopts,
		   const struct option *longopts, void (*help)(FILE *out));
int cli_next_opt(struct cli_opts *o, int argc, char **argv);
/* The message for an option the command does not take; CLI_USAGE. */
int cli_opts_bad(const struct cli_opts *o, char **argv);

/* A node on the tunnel, ready to use. */
struct cli_node {
	struct ipx_loop *loop;
	struct ipx_node *node;
	struct ipx_config cfg;
	struct ipx_link *link;
	struct ipx_addr addr;	/* this node's address */
	/* What every node runs (docs/routing.md, docs/diag.md): RIP as an
	 * end node, the diagnostics and ping responders. */
	struct ipx_rip *rip;
	struct ipx_diag *diag;
	struct ipx_ping_responder *pong;
	struct ipx_capture *cap;	/* --pcap, or NULL */
};

/* Load the configuration, join the hub (or open the Ethernet link), wait
 * until registered. Prints a clear error and returns nonzero on failure. */
int cli_node_open(struct cli_node *cn, const struct cli_node_opts *o);
void cli_node_close(struct cli_node *cn);
/*
 * Open the link the options name (--hub or --link) on 'loop', without
 * waiting for it to come up; 'promisc' asks an Ethernet link for every
 * IPX frame on the segment. 'cmd' prefixes error messages. Returns a CLI_
 * exit code. cli_link_wait waits until it is up, --wait at most; after
 * 0.3 s without an answer it says once that it is waiting (when stderr is
 * a terminal), and it gives one message if the link does not come up.
 */
int cli_link_open(const char *cmd, struct ipx_loop *loop,
		  const struct cli_node_opts *o, bool promisc,
		  struct ipx_link **out);
int cli_link_wait(const char *cmd, struct ipx_loop *loop,
		  const struct cli_node_opts *o, struct ipx_link *link);
/*
 * The one message for a link that did not come up within --wait: for a
 * tunnel, the server's address and what should run there; 'where' names
 * other links. cli_link_wait and the router use it.
 */
void cli_no_hub(const char *cmd, const struct ipx_link *link,
		const char *where, double wait);
/*
 * After 'waited' seconds without the answer a command looked for: when
 * 'link' is an Ethernet link with frame=auto that has still heard no IPX
 * frame of any type from another station (so it learnt none), say which
 * types it tried and which to name (docs/links.md: until it learns, auto
 * sends Ethernet_II, which a LAN on another type never answers).
 */
void cli_frame_hint(const char *cmd, const struct ipx_link *link,
		    double waited);
/* Has the link failed for good (a tunnel without an answer)? */
bool cli_link_failed(const struct ipx_link *link);
/* --pcap: open the capture file; CLI_ exit code. */
int cli_capture_open(const char *cmd, struct ipx_loop *loop, const char *path,
		     struct ipx_capture **out);
/* Stop the loop on SIGINT/SIGTERM. */
void cli_stop_on_signals(struct ipx_loop *loop);
/* Hold SIGINT and SIGTERM (pending, not acted on) until a loop's
 * cli_stop_on_signals: for a set-up before the loop exists. */
void cli_hold_stop_signals(void);

/* Parse helpers that print "ipxlab CMD: what is wrong" and return -1. */
/* "0000AA01" -> 0xAA01: 1 to 8 hex digits, no sign; -1 if not
 * (cli_link.c; quiet: the caller says what is wrong). */
int cli_parse_hex32(const char *s, uint32_t *out);
int cli_parse_uint(const char *cmd, const char *what, const char *text,
		   unsigned long min, unsigned long max, unsigned long *out);
int cli_parse_seconds(const char *cmd, const char *what, const char *text,
		      double min, double max, double *out);
/* A socket number: 1 to 4 hex digits, not 0 (0 asks for a dynamic one). */
int cli_parse_socket(const char *cmd, const char *what, const char *text,
		     uint16_t *out);
/* --profile NAME|FILE (link_profile.h): prints "ipxlab CMD: OPTION: ..."
 * (without "OPTION: " if it is NULL) with FILE:LINE for a bad file, and
 * returns -1. */
struct ipx_period;
/* --period NAME|FILE (machine.h): prints "ipxlab CMD: --period: ..." */
int cli_period_opt(const char *cmd, const char *text,
		   struct ipx_period *out);
struct ipx_profile;
int cli_profile_opt(const char *cmd, const char *option, const char *text,
		    struct ipx_profile *out);
void cli_error(const char *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* DIR/NAME into out (snprintf's return): one slash between them, none
 * added after a DIR that ends in one ("out/" + "F.TXT" = "out/F.TXT"). */
int cli_path_join(char *out, size_t len, const char *dir, const char *name);
/* "s" for a count other than 1 ("%u node%s", n, cli_s(n)). */
static inline const char *cli_s(unsigned long long n)
{
	return n == 1 ? "" : "s";
}
/*
 * An option getopt_long refused (it returned '?' or ':'; main sets opterr
 * to 0, so getopt says nothing itself): getopt's message, naming the
 * command ("ipxlab hub: unrecognized option '--x'"), then its usage
 * line. 'shortopts' and 'longopts' are what getopt_long was given.
 * Returns CLI_USAGE.
 */
struct option;
int cli_bad_option(const char *cmd, char **argv, const char *shortopts,
		   const struct option *longopts);
/* Write bytes as text: printable ASCII as is, the rest as \xHH. */
void cli_print_escaped(FILE *out, const uint8_t *data, size_t len);

/* Start the services every node runs (cli_node_open does). */
void cli_node_services(struct cli_node *cn);
/*
 * Parse a destination "NET:NODE[:SOCKET]" (see ipx_addr_parse); without a
 * socket it is 'socket'. Prints "ipxlab CMD: ..." and returns -1 if bad.
 */
int cli_parse_target(const char *cmd, const char *text, uint16_t socket,
		     struct ipx_addr *out);
/*
 * Open a dynamic socket other than 0x4001 and 0x4003: NetWare shells use
 * those for NCP watchdog and messages, and Wireshark decodes anything on
 * them as "IPX Message" (cli_node.c).
 */
int cli_open_client_socket(struct ipx_node *node, ipx_recv_cb cb, void *ctx,
			   struct ipx_socket **out);
/* "KIND:WHERE,key=value,..." of every --link: router, stack, bridge and
 * the node commands (cli_link.c). */
struct cli_link_spec {
	char kind[8];		/* "hub" or "eth" */
	char where[256];	/* hub: HOST[:PORT]; eth: IFACE */
	uint32_t net;		/* net= (required for a router) */
	uint16_t ticks;		/* ticks= (default 1) */
	char frame[16];		/* frame= (eth only; "" = auto) */
};
/* Parse one; a router then checks that net= is there. */
int cli_link_spec_parse(const char *text, struct cli_link_spec *out,
			char *err, size_t errlen);
/* Open an Ethernet link for a parsed eth: spec; CLI_ exit code. */
int cli_eth_open(const char *cmd, struct ipx_loop *loop,
		 const struct cli_link_spec *spec, bool promisc,
		 struct ipx_link **out);

/*
 * Standard input for commands that read it (send, netbios send and call,
 * spx). cli_stdin_watch watches it on the loop when epoll can (pipes,
 * terminals, sockets), non-blocking, and returns true; it returns false
 * for what epoll refuses (a regular file, /dev/null and other character
 * devices), which the caller then reads plainly: such reads never block.
 * cli_stdin_lines runs the loop until stdin ends, giving every chunk read
 * to 'feed' either way; it returns IPX_OK at the end of input or
 * IPX_ECLOSED if the loop was stopped (a signal). cli_stdin_nonblock sets
 * O_NONBLOCK on stdin and puts the original flags back at exit (the open
 * file is the shell's too, when stdin is a terminal).
 */
bool cli_stdin_nonblock(void);
bool cli_stdin_watch(struct ipx_loop *loop, ipx_fd_cb cb, void *ctx);
int cli_stdin_lines(struct ipx_loop *loop,
		    void (*feed)(void *ctx, const char *buf, size_t n),
		    void *ctx);

/*
 * The rule for -c N and -t S of the receiving commands (listen, netbios
 * recv): -t alone is how long to listen, exit 0 whatever came; with -c,
 * exit 0 once N have come, else 1 with "timed out after K of N datagrams"
 * (or "interrupted after ..." when a signal ended the wait).
 * Returns the CLI_ exit code for 'got' of 'want' (0: no -c).
 */
int cli_count_result(const char *cmd, unsigned long got, unsigned long want,
		     bool interrupted);

/* A receive callback that ignores what arrives (send-only sockets). */
void on_datagram_ignore(struct ipx_socket *sock, const struct ipx_header *hdr,
			const uint8_t *data, size_t len, void *ctx);

/* The commands. */
int cmd_hub(int argc, char **argv);
int cmd_bridge(int argc, char **argv);
void help_bridge(FILE *out);
int cmd_analyze(int argc, char **argv);
int cmd_profile(int argc, char **argv);
void help_profile(FILE *out);
int cmd_period(int argc, char **argv);
void help_period(FILE *out);
void help_analyze(FILE *out);
int cmd_listen(int argc, char **argv);
int cmd_send(int argc, char **argv);
int cmd_ping(int argc, char **argv);
int cmd_config(int argc, char **argv);
int cmd_demo(int argc, char **argv);
int cmd_bench(int argc, char **argv);
/* "[protocols | hub | ...] [options]": the benchmarks of cmd_bench.c's
 * table. */
extern const char bench_synopsis[];
int cmd_router(int argc, char **argv);
int cmd_routes(int argc, char **argv);
int cmd_slist(int argc, char **argv);
int cmd_sap(int argc, char **argv);
int cmd_advertise(int argc, char **argv);
int cmd_diag(int argc, char **argv);
int cmd_spx(int argc, char **argv);
int cmd_netbios(int argc, char **argv);
int cmd_capture(int argc, char **argv);
int cmd_agent(int argc, char **argv);
int cmd_server(int argc, char **argv);
int cmd_ncp(int argc, char **argv);
void help_server(FILE *out);
void help_ncp(FILE *out);
int cmd_mount(int argc, char **argv);
void help_mount(FILE *out);
void help_agent(FILE *out);
/* "ipxlab bench protocols" and a bare "ipxlab bench" (cmd_protocols.c). */
int bench_protocols(int argc, char **argv);
/* The message for a bad option of "ipxlab bench NAME" (bench_common.c). */
int bench_bad_option(const char *name, int opt, char **argv);
/* After getopt: an argument left over, or --json with --csv, is refused
 * with a message (CLI_USAGE); else CLI_OK. */
int bench_end_of_options(const char *name, int argc, char **argv, bool json,
			 bool csv);
/*
 * The measurement-window options every "ipxlab bench NAME" shares:
 * -s/--seconds, -w/--warmup (when 'warmup' is not NULL) and -r/--repeat
 * (1 to max_repeat). Returns 1 if opt was one of them, 0 if not, -1 after
 * printing what is wrong (-w without a 'warmup' included).
 */
int bench_window_opt(int opt, const char *arg, double *seconds,
		     double *warmup, unsigned long *repeat,
		     unsigned long max_repeat);
/* "ipxlab bench spx" (cmd_bench_spx.c). */
int bench_spx(int argc, char **argv);
void help_bench_spx(FILE *out);
/* "ipxlab bench netbios" (cmd_netbios.c). */
int bench_netbios(int argc, char **argv);
/* "1234567" -> "1,234,567" (bench_common.c). */
const char *bench_grouped(double v, char *buf, size_t len);
/* "ipxlab bench hub" (cmd_bench_hub.c). */
int bench_hub(int argc, char **argv);
/* Run this binary with argv as a child (stdio on /dev/null, killed when
 * this process dies); its pid, or -1. */
pid_t cli_spawn_self(char *const argv[]);
/* -u without -p, stdin a terminal: "Password for USER: " read without
 * echo into buf (as LOGIN did); NULL if stdin is no terminal or the
 * answer cannot be read (cli_io.c). */
const char *cli_ask_password(const char *user, char *buf, size_t cap);
/* SIGTERM the child and reap it; *pid becomes 0. Nothing if *pid <= 0. */
void cli_stop_child(pid_t *pid);
/* Remove a directory and everything below it (symbolic links as links). */
void cli_remove_tree(const char *dir);
/* A UDP port free on 127.0.0.1 just now; 0 if none. */
int cli_free_udp_port(void);
/* "VERSION (commit C)", for the conditions a benchmark records. */
const char *cli_version_text(void);
/* "Linux 6.1.0 x86_64" (uname), into buf; "?" if unknown. */
const char *cli_machine_text(char *buf, size_t len);
/* "ipxlab bench battery", "ipxlab bench copy" (cmd_bench_battery.c). */
int bench_battery(int argc, char **argv);
int bench_copy(int argc, char **argv);
void help_bench_battery(FILE *out);
void help_bench_copy(FILE *out);
/* "ipxlab bench perftest" (cmd_bench_perftest.c). */
int bench_perftest(int argc, char **argv);
void help_bench_perftest(FILE *out);
/* "ipxlab bench perform3" (cmd_bench_perform3.c). */
int bench_perform3(int argc, char **argv);
void help_bench_perform3(FILE *out);
/* "ipxlab bench retrieval" (cmd_bench_retrieval.c). */
int bench_retrieval(int argc, char **argv);
void help_bench_retrieval(FILE *out);
int bench_arrival(int argc, char **argv);
void help_bench_arrival(FILE *out);
/* "ipxlab bench wan" (cmd_bench_wan.c). */
int bench_wan(int argc, char **argv);
void help_bench_wan(FILE *out);
/* "ipxlab bench suite", "ipxlab bench plot" (cmd_bench_suite.c,
 * cmd_bench_plot.c); cmd_bench is the dispatch the suite's children run. */
int bench_suite(int argc, char **argv);
void help_bench_suite(FILE *out);
int bench_plot(int argc, char **argv);
void help_bench_plot(FILE *out);
/* "ipxlab bench ncp" (cmd_bench_ncp.c). */
int bench_ncp(int argc, char **argv);
void help_bench_ncp(FILE *out);
/* "ipxlab bench eth" (cmd_bench_eth.c). */
int bench_eth(int argc, char **argv);
void help_bench_eth(FILE *out);
/* "ipxlab bench mount" (cmd_bench_mount.c). */
int bench_mount(int argc, char **argv);
void help_bench_mount(FILE *out);
/* "ipxlab bench tuning" (cmd_bench_tuning.c). */
int bench_tuning(int argc, char **argv);
void help_bench_tuning(FILE *out);
void help_hub(FILE *out);
void help_listen(FILE *out);
void help_send(FILE *out);
void help_ping(FILE *out);
void help_config(FILE *out);
void help_demo(FILE *out);
void help_bench(FILE *out);
void help_router(FILE *out);
void help_routes(FILE *out);
void help_slist(FILE *out);
void help_sap(FILE *out);
void help_advertise(FILE *out);
void help_diag(FILE *out);
void help_spx(FILE *out);
void help_netbios(FILE *out);
void help_capture(FILE *out);
/* "ipxlab stack" and "ipxlab run" (cmd_stack.c). */
int cmd_stack(int argc, char **argv);
int cmd_run(int argc, char **argv);
void help_stack(FILE *out);
void help_run(FILE *out);

#endif
