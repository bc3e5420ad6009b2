// SPDX-License-Identifier: GPL-2.0
/* Unit tests of hwmon sensors (tools/sensors.c) on a fake sysfs tree. */
#include "report.h"
#include "result.h"
#include "sensors.h"
#include "tool_test.h"

static char sysroot[64];

static void mkfile(const char *rel, const char *text)
{
	write_text(sysroot, rel, text);
}

/* Shell-free mkdir -p and ln -s below sysroot. */
static void mk(const char *rel, const char *link_to)
{
	char path[512], *p;

	snprintf(path, sizeof(path), "%s/%s", sysroot, rel);
	for (p = path + strlen(sysroot) + 1; (p = strchr(p, '/')); p++) {
		*p = 0;
		mkdir(path, 0755);
		*p = '/';
	}
	if (link_to)
		CHECK(symlink(link_to, path) == 0);
	else
		mkdir(path, 0755);
}

#define NVME "devices/pci0000:00/0000:00:03.0/nvme/nvme0"
#define SATA "devices/pci0000:00/0000:00:1f.2/ata1/host0/target0:0:0/0:0:0:0"

/*
 * 259:0 nvme0n1 (controller nvme0 with hwmon3: a composite temperature and
 * a second sensor at temp3) and 259:1 its partition; 8:0 sda whose PCI
 * function has hwmon/hwmon1 with power1_average; 259:2 a multipath disk on
 * nvme-subsys0 whose path is nvme0c0n2 of nvme0; 251:0 a virtual disk.
 */
static void make_sysfs(void)
{
	strcpy(sysroot, "/tmp/kb-sysfs-XXXXXX");
	CHECK(mkdtemp(sysroot) != NULL);
	mk(NVME "/nvme0n1/device", "../../nvme0");
	mk(NVME "/nvme0n1/nvme0n1p1/partition", NULL);
	mk(NVME "/hwmon3/x", NULL);
	mkfile(NVME "/hwmon3/name", "nvme\n");
	mkfile(NVME "/hwmon3/temp1_input", "49850\n");
	mkfile(NVME "/hwmon3/temp1_label", "Composite\n");
	mkfile(NVME "/hwmon3/temp3_input", "-1000\n");
	mk(NVME "/nvme0c0n2/device", "../../nvme0");
	mk("devices/virtual/nvme-subsystem/nvme-subsys0/nvme0n2/device", "../../nvme-subsys0");
	mk("devices/virtual/nvme-subsystem/nvme-subsys0/nvme0n2/multipath/nvme0c0n2",
	   "../../../../../pci0000:00/0000:00:03.0/nvme/nvme0/nvme0c0n2");
	mk(SATA "/block/sda/device", "../../../0:0:0:0");
	mk("devices/pci0000:00/0000:00:1f.2/hwmon/hwmon1/x", NULL);
	mkfile("devices/pci0000:00/0000:00:1f.2/hwmon/hwmon1/name", "ahcihw\n");
	mkfile("devices/pci0000:00/0000:00:1f.2/hwmon/hwmon1/power1_average", "2500000\n");
	mk("devices/virtual/block/nullb0/x", NULL);
	mk("dev/block/259:0", "../../" NVME "/nvme0n1");
	mk("dev/block/259:1", "../../" NVME "/nvme0n1/nvme0n1p1");
	mk("dev/block/259:2", "../../devices/virtual/nvme-subsystem/nvme-subsys0/nvme0n2");
	mk("dev/block/8:0", "../../" SATA "/block/sda");
	mk("dev/block/251:0", "../../devices/virtual/block/nullb0");
}

static const char *found(unsigned int major, unsigned int minor)
{
	static char dir[256];
	size_t n = strlen(sysroot);

	if (kb_hwmon_find(sysroot, major, minor, dir, sizeof(dir)))
		return "-";
	return strncmp(dir, sysroot, n) ? dir : dir + n + 1;
}

static void t_hwmon_find(void)
{
	make_sysfs();
	CHECK_STR(found(259, 0), NVME "/hwmon3");
	CHECK_STR(found(259, 1), NVME "/hwmon3");	/* partition: its disk's */
	CHECK_STR(found(259, 2), NVME "/hwmon3");	/* multipath: its path's */
	/* a parent's, in the "hwmon" directory of a non-class device */
	CHECK_STR(found(8, 0), "devices/pci0000:00/0000:00:1f.2/hwmon/hwmon1");
	CHECK_STR(found(251, 0), "-");			/* null_blk: none */
	CHECK(kb_hwmon_find(sysroot, 1, 99, (char[8]){ 0 }, 8) == -1);	/* no such dev */
}

/* Identities: NVMe (the controller's, a multipath disk's), SCSI, none. */
static void t_devid(void)
{
	struct kb_devid id;

	mkfile(NVME "/model", "QEMU NVMe Ctrl                          \n");
	mkfile(NVME "/serial", "kiobench0   \n");
	mkfile(NVME "/firmware_rev", "9.2.2   \n");
	mkfile(NVME "/transport", "pcie\n");
	mk("devices/virtual/nvme-subsystem/nvme-subsys0/x", NULL);
	mkfile("devices/virtual/nvme-subsystem/nvme-subsys0/model", "Subsys Model\n");
	mkfile("devices/virtual/nvme-subsystem/nvme-subsys0/serial", "S1\n");
	mkfile("devices/virtual/nvme-subsystem/nvme-subsys0/firmware_rev", "F1\n");
	mkfile(SATA "/vendor", "ATA     \n");
	mkfile(SATA "/model", "QEMU HARDDISK   \n");
	mkfile(SATA "/rev", "2.5+\n");
	mk(SATA "/scsi_disk/0:0:0:0", NULL);
	CHECK(kb_devid_read(sysroot, 259, 1, &id) == 0);	/* a partition: its disk's */
	CHECK_STR(id.model, "QEMU NVMe Ctrl");
	CHECK_STR(id.serial, "kiobench0");
	CHECK_STR(id.firmware, "9.2.2");
	CHECK_STR(id.transport, "pcie");
	CHECK(kb_devid_read(sysroot, 259, 2, &id) == 0);	/* multipath */
	CHECK_STR(id.model, "Subsys Model");
	CHECK_STR(id.transport, "pcie");			/* its path's */
	CHECK(kb_devid_read(sysroot, 8, 0, &id) == 0);
	CHECK_STR(id.model, "ATA QEMU HARDDISK");
	CHECK_STR(id.firmware, "2.5+");
	CHECK_STR(id.transport, "scsi");
	CHECK(kb_devid_read(sysroot, 251, 0, &id) == 0);	/* null_blk: nothing */
	CHECK(!id.model[0] && !id.serial[0] && !id.transport[0]);
	CHECK(kb_devid_read(sysroot, 1, 99, &id) == -1);
}

static void open_hw(struct kb_hwmon *h, unsigned int major, unsigned int minor,
		    const char *dev)
{
	char dir[256];

	CHECK(kb_hwmon_find(sysroot, major, minor, dir, sizeof(dir)) == 0);
	CHECK(kb_hwmon_open(h, dir, dev) == 0);
}

/* Two results over the fake tree: nvme0n1 and its partition (one hwmon), sda. */
static void sensor_results(struct kb_result *r, struct kb_job *job)
{
	unsigned int i;

	make_result(&r[0], &job[0], 1000);
	make_result(&r[1], &job[1], 1000);
	r[0].hw = calloc(2, sizeof(*r[0].hw));
	r[1].hw = calloc(1, sizeof(*r[1].hw));
	r[0].nr_hw = 2;
	r[1].nr_hw = 1;
	open_hw(&r[0].hw[0], 259, 0, "/dev/nvme0n1");
	open_hw(&r[0].hw[1], 259, 1, "/dev/nvme0n1p1");
	open_hw(&r[1].hw[0], 8, 0, "/dev/sda");
	/*
	 * ramp_time is 2 s: power counts from there.  Every sample reads other
	 * values from the files, so that each figure has one right source:
	 * sda's power is 9 and 7 W in the warm-up, then 2 and 3 W (mean 2.5 W,
	 * which neither the first, the last, the min nor the max is); nvme0's
	 * temperatures 50.2, 51, 49.85, 50.5 C (the max the second, the min the
	 * third: neither is the first or the last), its temp3 -1000, -1100,
	 * (a failed read), -1300.
	 */
	for (i = 0; i < 4; i++) {
		static const char *const t1[4] = { "50200\n", "51000\n", "49850\n", "50500\n" };
		static const char *const t3[4] = { "-1000\n", "-1100\n", "-1200\n", "-1300\n" };
		static const char *const pw[4] = { "9000000\n", "7000000\n", "2000000\n",
						   "3000000\n" };

		mkfile(NVME "/hwmon3/temp1_input", t1[i]);
		mkfile(NVME "/hwmon3/temp3_input", t3[i]);
		mkfile("devices/pci0000:00/0000:00:1f.2/hwmon/hwmon1/power1_average", pw[i]);
		kb_hwmon_sample(&r[0].hw[0], i * 1000000000ULL);
		kb_hwmon_sample(&r[1].hw[0], i * 1000000000ULL);
	}
	r[0].hw[0].s[2].v[KB_HW_TEMP][1] = KB_HWMON_NONE;	/* failed read */
	for (i = 0; i < 2; i++)
		kb_hwmon_close(&r[0].hw[i]);
}

static void t_hwmon_read(void)
{
	struct kb_result r[2];
	struct kb_job job[2];
	struct kb_hw_sum s;
	size_t hint = 0;
	struct kb_hwmon *h;

	sensor_results(r, job);
	h = &r[0].hw[0];
	CHECK_STR(h->name, "nvme");
	CHECK_STR(h->owner, "nvme0");
	CHECK(h->nr[KB_HW_TEMP] == 2 && h->nr[KB_HW_POWER] == 0);
	CHECK_STR(h->label[KB_HW_TEMP][0], "Composite");
	CHECK_STR(h->label[KB_HW_TEMP][1], "temp3");	/* no label: its name */
	/* each sample read the files anew */
	CHECK(h->nr_s == 4 && h->s[0].v[KB_HW_TEMP][0] == 50200 &&
	      h->s[0].v[KB_HW_TEMP][1] == -1000 && h->s[3].v[KB_HW_TEMP][0] == 50500 &&
	      h->s[3].v[KB_HW_TEMP][1] == -1300);
	CHECK_STR(r[1].hw[0].owner, "0000:00:1f.2");	/* past the "hwmon" directory */
	CHECK(r[1].hw[0].nr[KB_HW_POWER] == 1);
	/* nearest within the tolerance; the hint only moves forward */
	CHECK(kb_hwmon_nearest(h, 1400000000ULL, 500000000ULL, &hint) == &h->s[1]);
	CHECK(kb_hwmon_nearest(h, 1600000000ULL, 500000000ULL, &hint) == &h->s[2]);
	CHECK(hint == 1);
	CHECK(kb_hwmon_nearest(h, 3600000000ULL, 500000000ULL, &hint) == NULL);
	hint = 0;
	CHECK(kb_hwmon_nearest(h, 0, 0, &hint) == &h->s[0]);
	/*
	 * one job: temperatures of the first sensor, no power.  Mutations:
	 * the min or the max taken from the first or the last sample, or over
	 * every sensor (temp3's -1300): red.
	 */
	kb_hwmon_summarize(r, 1, &s);
	CHECK(s.devices == 1 && s.has_temp && !s.has_power);
	CHECK(s.temp_min_mc == 49850 && s.temp_max_mc == 51000);
	/*
	 * both: sda's power, the mean from the warm-up's end on: 2.5 W, not 9,
	 * 7, 2 or 3, nor (9+7+2+3)/4.  Mutations: mean_power() keeping the
	 * warm-up (`any_late` false), or returning one sample: red.
	 */
	kb_hwmon_summarize(r, 2, &s);
	CHECK(s.devices == 2 && s.has_power && fabs(s.power_uw - 2500000) < 1e-6);
	free_hw_results(r, job);
}

static void t_hwmon_json(void)
{
	struct json_object *root, *kb, *v, *e, *sm;
	struct kb_result r[2];
	struct kb_job job[2];
	char *s, *text;

	sensor_results(r, job);
	s = kb_json_report(&r[0], 1, 0);
	root = json_tokener_parse(s);
	kb = json_object_object_get(json_object_array_get_idx(
		json_object_object_get(root, "jobs"), 0), "kiobench");
	v = json_object_array_get_idx(json_object_object_get(kb, "sensors"), 0);
	CHECK(json_object_array_length(json_object_object_get(kb, "sensors")) == 2);
	CHECK_STR(json_object_get_string(json_object_object_get(v, "device")), "/dev/nvme0n1");
	CHECK_STR(json_object_get_string(json_object_object_get(v, "hwmon")), "nvme");
	CHECK_STR(json_object_to_json_string(json_object_array_get_idx(
		json_object_object_get(v, "samples"), 2)),
		"{ \"t_ms\": 2000, \"temp_mc\": [ 49850, null ], \"power_uw\": [ ] }");
	/*
	 * timeline entries at 1 s and 2 s: the samples taken then (a sample
	 * of another time has other values: a misaligned one is red); the
	 * partition has none
	 */
	e = json_object_array_get_idx(json_object_object_get(kb, "timeline"), 0);
	CHECK_STR(json_object_to_json_string(json_object_object_get(e, "temp_mc")),
		  "[ 51000, -1100, null, null ]");
	e = json_object_array_get_idx(json_object_object_get(kb, "timeline"), 1);
	CHECK_STR(json_object_to_json_string(json_object_object_get(e, "temp_mc")),
		  "[ 49850, null, null, null ]");
	CHECK(!json_object_object_get_ex(e, "power_uw", NULL));
	sm = json_object_object_get(kb, "sensors_summary");
	CHECK(json_object_get_int64(json_object_object_get(sm, "temp_max_mc")) == 51000);
	CHECK(json_object_get_type(json_object_object_get(sm, "iops_per_w")) == json_type_null);
	CHECK_STR(json_object_get_string(json_object_object_get(sm, "note")),
		  "no power sensor: efficiency not reported");
	json_object_put(root);
	free(s);
	/* power: 2.5 W at 100 IOPS and 0.4096 MB/s */
	sm = kb_json_sensors(&r[1], 1, 100, 409600);
	CHECK(fabs(json_object_get_double(json_object_object_get(sm, "iops_per_w")) - 40) < 1e-6);
	CHECK(fabs(json_object_get_double(json_object_object_get(sm, "mb_s_per_w")) - 0.16384)
	      < 1e-6);
	json_object_put(sm);
	text = capture(kb_print_normal, &r[1]);
	CHECK(strstr(text, "  sensors      : 0000:00:1f.2 no temperature sensor (hwmon ahcihw, "
		     "4 samples)\n"));
	CHECK(strstr(text, "  power        : mean 2.50 W, 40 IOPS/W, 0.16 MB/s per W\n"));
	free(text);
	free_hw_results(r, job);
	/* no sensors */
	make_result(&r[0], &job[0], 1000);
	text = capture(kb_print_normal, &r[0]);
	CHECK(strstr(text, "  sensors      : none (no hwmon sensor for /dev/nullb0)\n"));
	CHECK(strstr(text, "  power        : n/a (no power sensor: efficiency not reported)\n"));
	free(text);
	s = kb_json_report(&r[0], 1, 0);
	CHECK(strstr(s, "\"sensors\": null") && strstr(s, "\"sensors_summary\": null") &&
	      strstr(s, "\"sensors_note\": \"no hwmon sensor: /dev/nullb0\""));
	free(s);
	free_result(&r[0], &job[0]);
}

void sensors_tests(void)
{
	run_case("sensors: hwmon of disk, partition, multipath, parent; none", t_hwmon_find);
	run_case("sensors: device identity of NVMe, multipath, SCSI; none", t_devid);
	run_case("sensors: open, sample, nearest, summary", t_hwmon_read);
	run_case("sensors: JSON, timeline, normal output, efficiency", t_hwmon_json);
}

/* The fake sysfs tree goes when the tests are done. */
void sensors_cleanup(void)
{
	char cmd[128];

	if (!sysroot[0])
		return;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", sysroot);
	if (system(cmd))
		printf("cannot remove %s\n", sysroot);
}
