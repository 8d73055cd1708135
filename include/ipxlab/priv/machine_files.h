/*
 * machine_files.h - the period machine files built into ipxlab: every
 * file of machines/ as text, generated at build time by
 * scripts/embed-machines.sh (machine.h reads them).
 */
#ifndef IPXLAB_PRIV_MACHINE_FILES_H
#define IPXLAB_PRIV_MACHINE_FILES_H

#include <stddef.h>

struct ipx_machine_file {
	const char *kind;	/* "software", "adapter", "machine", "period" */
	const char *name;	/* the file's name without its extension */
	const char *text;
};

extern const struct ipx_machine_file ipx_machine_files[];
extern const size_t ipx_machine_nfiles;

#endif
