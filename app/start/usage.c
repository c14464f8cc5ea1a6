/* SPDX-License-Identifier: BSD-3-Clause */
#include <stdio.h>

#include "config/optab.h"
#include "common/subcmds.h"
#include "usage.h"

/* The options, by section, from the option table (lib/config/optab.c). */
static void
usage_options(FILE *f)
{
	char buf[1024];
	unsigned int sec;
	size_t i;

	for (sec = 0; sec < WR_OPTSEC_COUNT; sec++) {
		fprintf(f, "%s:\n", wr_optab_section_title(sec));
		for (i = 0; i < wr_optab_len; i++) {
			if (wr_optab[i].section != sec)
				continue;
			if (wr_optab_format(&wr_optab[i], buf, sizeof(buf)) > 0)
				fputs(buf, f);
		}
		fputc('\n', f);
	}
}

/* The subcommands, from their one list (subcmds.h). */
static void
usage_subcommands(FILE *f, const char *prog)
{
	fprintf(f, "Subcommands (%s NAME --help for each; no EAL):\n", prog);
#define SUB(name, summary) fprintf(f, "  %-9s %s\n", #name, summary);
	APP_SUBCMDS(SUB)
#undef SUB
	fputc('\n', f);
}

void
app_usage(FILE *f, const char *prog)
{
	static const char *const names[] = {
#define SUB(name, summary) #name,
		APP_SUBCMDS(SUB)
#undef SUB
	};
	unsigned int i;

	fprintf(f, "Usage: %s [EAL options] -- [wirerate options]\n       %s ", prog, prog);
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		fprintf(f, "%s%s", i ? "|" : "", names[i]);
	fprintf(f, " ... (Subcommands below)\n"
"\n"
"Transmit and count fixed-size Ethernet/IPv4/UDP frames on DPDK ports at\n"
"line rate; every frame carries a test header (signature, stream, sequence,\n"
"TX timestamp) so the receiver accounts for each one.\n"
"\n"
"EAL options (before --): -l 0,1 (main lcore = stats core, the others\n"
"  are workers), --vdev net_null0 / net_ring0 / ..., -a PCI, --in-memory,\n"
"  --file-prefix NAME, --no-pci. See the DPDK EAL guide.\n"
"\n");
	usage_options(f);
	usage_subcommands(f, prog);
	fprintf(f,
"Exit status: 0 ran as asked (also when stopped by SIGINT/SIGTERM);\n"
"1 the run failed or the machine could not do it (a port would not\n"
"start, no memory for the pools, a result file that cannot be written,\n"
"mbufs not returned, ...); 2 bad usage or input (an option, a profile,\n"
"a port or lcore that is not there).\n");
}
