// SPDX-License-Identifier: GPL-2.0
/* Unit tests of step rows (tools/steps_out.c): table and CSV. */
#include "sensors.h"
#include "steps.h"
#include "tool_test.h"

static void t_csv_row(void)
{
	struct kb_step st = { .index = 2, .var = KB_VAR_IODEPTH, .iodepth = 2, .numjobs = 2,
			      .bs = 4096, .nr_devices = 1, .busy_ns = 5, .idle_ns = 6 };
	struct kb_sum s = { .present = true, .has_pct = true, .ios = 10, .bytes = 40960,
			    .measured_ns = 1000, .iops = 1e7, .bw = 4.096e10, .mean = 100,
			    .min = 90, .max = 200, .samples = 10, .cpu_ns = 7000,
			    .cpu_ns_per_io = 700, .pct = { 100, 150, 190, 200, 200 } };
	struct kb_hw_sum hw = { .devices = 1, .has_temp = true, .has_power = true,
				.temp_min_mc = 31000, .temp_max_mc = 45500, .power_uw = 5.25e6 };
	const char *hdr = "part,step,variable,value,dir,iodepth,numjobs,bs,devices,device,ios,";
	char buf[1024];
	FILE *f = fmemopen(buf, sizeof(buf), "w");

	strcpy(st.value, "4");
	kb_csv_header(f);
	kb_csv_row(f, "p", &st, NULL, 1, &s, NULL);
	kb_csv_row(f, "p", &st, "/dev/nullb1", 0, &s, &hw);
	fclose(f);
	/* the step's aggregate: no device, no sensors; then one device's row */
	CHECK(strstr(buf, "\np,2,iodepth,4,write,2,2,4096,1,,10,40960,1000,10000000.000,"
		      "40960.000,100.0,100,150,190,200,200,90,200,10,0,5,6,7000,700.0,,,\n") != NULL);
	CHECK(strstr(buf, "\np,2,iodepth,4,read,2,2,4096,1,/dev/nullb1,10,40960,") != NULL);
	CHECK(strstr(buf, ",7000,700.0,31000,45500,5250000\n") != NULL);
	CHECK(strncmp(buf, hdr, strlen(hdr)) == 0);
	CHECK(strstr(buf, ",cpu_ns_per_io,temp_min_mc,temp_max_mc,power_uw\n") != NULL);
}

/* The table's sensor columns: the hottest temperature and the mean power, or "-". */
static void t_table_row(void)
{
	struct kb_hw_sum hw = { .devices = 1, .has_temp = true, .temp_max_mc = 45500 };
	struct kb_sum s = { .present = true, .ios = 10, .iops = 1e7, .bw = 4.096e10,
			    .mean = 100, .max = 200, .samples = 10, .cpu_ns_per_io = 700 };
	char buf[1024];
	FILE *f = fmemopen(buf, sizeof(buf), "w");

	kb_table_header(f, "iodepth");
	kb_table_row(f, "4", 0, &s, NULL);
	kb_table_row(f, "8", 1, &s, &hw);
	fclose(f);
	CHECK(strstr(buf, "cpu_ns/io  temp_C  power_W\n") != NULL);
	CHECK(strstr(buf, "       700       -        -\n") != NULL);
	CHECK(strstr(buf, "       700    45.5        -\n") != NULL);
	CHECK(strstr(buf, "\n8          write ") != NULL);
}

void steps_out_tests(void)
{
	run_case("CSV row", t_csv_row);
	run_case("table row: sensor columns", t_table_row);
}
