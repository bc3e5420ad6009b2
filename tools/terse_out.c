// SPDX-License-Identifier: GPL-2.0
/*
 * The terse report: fio's terse version 3, one line of ';' fields per job.
 */
#define _GNU_SOURCE
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <json-c/json.h>

#include "json.h"
#include "kiobench.h"
#include "output.h"
#include "report.h"
#include "result.h"
#include "sensors.h"
#include "stats.h"

/* ---- terse (fio version 3) ------------------------------------------------- */

static void terse_dir(FILE *f, const struct kb_result *all, size_t n,
		      const struct kb_result *r, int d)
{
	struct kb_samples bw, iops;
	double mean, dev;
	struct dir_calc c;
	unsigned int i;

	kb_calc_dir(r, d, &c);
	fprintf(f, ";%" PRIu64 ";%" PRIu64 ";%" PRIu64 ";%" PRIu64,
		c.ds->bytes >> 10, c.bw_bytes / 1024, c.iops_int, c.runtime_ms);
	/* slat: not measured */
	fprintf(f, ";0;0;%f;%f", 0.0, 0.0);
	/* clat (us) */
	if (c.ds->ios)
		fprintf(f, ";%" PRIu64 ";%" PRIu64 ";%f;%f", c.ds->lat_min / 1000,
			c.ds->lat_max / 1000, c.mean / 1000, c.dev / 1000);
	else
		fprintf(f, ";0;0;%f;%f", 0.0, 0.0);
	for (i = 0; i < KB_MAX_PERCENTILES; i++) {
		if (c.has_pct && kb_pct_shown(r->job) && i < r->job->nr_plist)
			fprintf(f, ";%f%%=%" PRIu64, r->job->plist[i] / (double)KB_PCT_ONE,
				c.pv[i] / 1000);
		else
			fprintf(f, ";0%%=0");
	}
	/* lat (us): the same as clat */
	if (c.ds->ios)
		fprintf(f, ";%" PRIu64 ";%" PRIu64 ";%f;%f", c.ds->lat_min / 1000,
			c.ds->lat_max / 1000, c.mean / 1000, c.dev / 1000);
	else
		fprintf(f, ";0;0;%f;%f", 0.0, 0.0);
	/* fio's bandwidth samples (KiB/s): bwavgtime windows of the timeline */
	kb_rate_samples(r, d, &bw, &iops);
	if (kb_samples_stats(&bw, &mean, &dev))
		fprintf(f, ";%" PRIu64 ";%" PRIu64 ";%f%%;%f;%f", bw.min, bw.max,
			kb_bw_per(all, n, r, d, mean), mean, dev);
	else
		fprintf(f, ";0;0;%f%%;%f;%f", 0.0, 0.0, 0.0);
}

static void terse_mixed(FILE *f, const struct kb_result *all, size_t n,
			const struct kb_result *r)
{
	struct kb_result m;

	if (r->job->unified_rw == KB_UNIFIED_NONE || kb_mixed_result(r, &m))
		return;
	terse_dir(f, all, n, &m, KIOBENCH_DIR_READ);
	kb_mixed_free(&m);
}

void kb_print_terse(FILE *f, const struct kb_result *r, size_t n)
{
	kb_print_terse_disks(f, r, n, NULL, 0);
}

/* fio's terse disk utilization, appended to each line: name and 8 figures. */
static void terse_disks(FILE *f, const struct kb_disk *dk, size_t nd)
{
	size_t k;

	for (k = 0; k < nd; k++) {
		if (!dk[k].ok)
			continue;
		fprintf(f, ";%s;%" PRIu64 ";%" PRIu64 ";%" PRIu64 ";%" PRIu64 ";%" PRIu64
			";%" PRIu64 ";%" PRIu64 ";%3.2f%%", dk[k].name,
			kb_disk_delta(&dk[k], KB_DS_RIOS), kb_disk_delta(&dk[k], KB_DS_WIOS),
			kb_disk_delta(&dk[k], KB_DS_RMERGE), kb_disk_delta(&dk[k], KB_DS_WMERGE),
			kb_disk_delta(&dk[k], KB_DS_RTICKS), kb_disk_delta(&dk[k], KB_DS_WTICKS),
			kb_disk_delta(&dk[k], KB_DS_INQUEUE), kb_disk_util(&dk[k]));
	}
}

void kb_print_terse_disks(FILE *f, const struct kb_result *r, size_t n,
			  const struct kb_disk *dk, size_t nd)
{
	double pn[KB_LAT_N_NR], pu[KB_LAT_U_NR], pm[KB_LAT_M_NR];
	size_t i;
	int d, k;

	for (i = 0; i < n; i++) {
		fprintf(f, "3;kiobench-%s;%s;%u;%d", KB_TOOL_VERSION, r[i].job->name,
			r[i].groupid, kb_fio_error(&r[i]));
		/*
		 * fio's terse version 3: reads and writes (trims came in 4);
		 * unified_rw_reporting=mixed: the sum alone, both: after them
		 */
		for (d = 0; d <= KIOBENCH_DIR_WRITE &&
			    r[i].job->unified_rw != KB_UNIFIED_MIXED; d++)
			terse_dir(f, r, n, &r[i], d);
		terse_mixed(f, r, n, &r[i]);
		/* CPU usage: the workers' system time; context switches not counted */
		fprintf(f, ";%f%%;%f%%;0;0;0", 0.0, kb_sys_cpu_pct(&r[i]));
		/* I/O depth distribution: not measured */
		for (k = 0; k < 7; k++)
			fprintf(f, ";%3.1f%%", 0.0);
		/* latency distribution; fio adds the ns ranges to the first us one */
		kb_result_lat_dist(&r[i], pn, pu, pm);
		for (k = 0; k < KB_LAT_N_NR; k++)
			pu[0] += pn[k];
		for (k = 0; k < KB_LAT_U_NR; k++)
			fprintf(f, ";%3.2f%%", pu[k]);
		for (k = 0; k < KB_LAT_M_NR; k++)
			fprintf(f, ";%3.2f%%", pm[k]);
		if (r[i].job->continue_on_error)	/* fio's total_err, first_error */
			fprintf(f, ";%" PRIu64 ";%d", kb_total_err(&r[i].st),
				-r[i].st.first_error);
		terse_disks(f, dk, nd);
		if (r[i].job->description)	/* fio's last field, when there is one */
			fprintf(f, ";%s", r[i].job->description);
		fprintf(f, "\n");
	}
}
