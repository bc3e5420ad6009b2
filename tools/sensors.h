/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A block device's hwmon sensors (sensors.c, sysfs).
 */
#ifndef KIOBENCH_SENSORS_H
#define KIOBENCH_SENSORS_H

#include "result.h"

enum kb_hw_kind {
	KB_HW_TEMP,		/* temp*_input, millidegree Celsius */
	KB_HW_POWER,		/* power*_input or power*_average, microwatt */
	KB_HW_NR
};

#define KB_HWMON_MAX		8	/* sensors of one kind kept per device */
#define KB_HWMON_MAX_SAMPLES	65536	/* as the module's timeline */
#define KB_HWMON_MIN_PERIOD_NS	100000000ULL	/* reading may cost a device command */
#define KB_HWMON_NONE		INT64_MIN	/* a reading that failed */

struct kb_hw_sample {
	uint64_t t_ns;			/* since the job's start */
	int64_t v[KB_HW_NR][KB_HWMON_MAX];
};

/* The hwmon sensors of one device of a job, and their samples. */
struct kb_hwmon {
	const char *device;		/* the job's device path (not owned) */
	char path[256];			/* the hwmon directory in sysfs */
	char name[32];			/* its "name": "nvme", "drivetemp" */
	char owner[64];			/* the device it hangs on: "nvme0" */
	unsigned int nr[KB_HW_NR];
	char label[KB_HW_NR][KB_HWMON_MAX][32];
	int fd[KB_HW_NR][KB_HWMON_MAX];	/* open while sampling, else -1 */
	struct kb_hw_sample *s;
	size_t nr_s, cap_s;
	uint64_t dropped;		/* samples beyond KB_HWMON_MAX_SAMPLES */
};

/* Sensor figures of a job or a step (several jobs). */
struct kb_hw_sum {
	unsigned int devices;		/* distinct hwmon devices */
	bool has_temp, has_power;
	int64_t temp_min_mc, temp_max_mc;	/* first temperature sensor of each */
	double power_uw;		/* mean total power in the measured time */
};

/*
 * The hwmon directory of block device devnum (a partition: its disk) under
 * sysfs (normally "/sys"): the nearest one on the disk's device or a parent
 * of it, or on the first path of an NVMe multipath disk.  0 and dir filled,
 * 1 when there is none, -1 on a sysfs error (errno).
 */
int kb_hwmon_find(const char *sysfs, unsigned int major, unsigned int minor,
		  char *dir, size_t len);
/*
 * The identity of block device major:minor under sysfs: of its disk (a
 * partition's parent), the device below it: NVMe's model, serial,
 * firmware_rev and transport (a multipath disk's from its subsystem and
 * first path), SCSI's vendor and model, rev and "scsi", else the disk's
 * own serial (virtio).  0, or -1 when sysfs does not know the device.
 */
int kb_devid_read(const char *sysfs, unsigned int major, unsigned int minor,
		  struct kb_devid *id);
/*
 * Open the temperature and power sensors of hwmon directory dir for device:
 * 0, 1 when it has neither (h closed), -1 on an error (errno).
 */
int kb_hwmon_open(struct kb_hwmon *h, const char *dir, const char *device);
/* Read every sensor once, stamped t_ns; false when out of room or memory. */
bool kb_hwmon_sample(struct kb_hwmon *h, uint64_t t_ns);
/* Close the sensors' files, keeping the samples. */
void kb_hwmon_close(struct kb_hwmon *h);
void kb_hwmon_free(struct kb_hwmon *h, unsigned int n);
/* The sample nearest t_ns, if within tol; *hint: where to start (0 first). */
const struct kb_hw_sample *kb_hwmon_nearest(const struct kb_hwmon *h, uint64_t t_ns,
					    uint64_t tol, size_t *hint);
/*
 * The sensor figures of the jobs r[0..n) into s (zeroed here).  Power is
 * averaged over each job's measured time (the samples from its warm-up's
 * end on; all of them if none is).  A hwmon device counts once, however
 * many of the devices (namespaces of one controller) share it.
 */
void kb_hwmon_summarize(const struct kb_result *r, size_t n, struct kb_hw_sum *s);

/*
 * A block device's own counts (its sysfs "stat"), read before and after a
 * run: fio's "Disk stats" and "disk_util".
 */
enum { KB_DS_RIOS, KB_DS_RMERGE, KB_DS_RSECT, KB_DS_RTICKS, KB_DS_WIOS, KB_DS_WMERGE,
       KB_DS_WSECT, KB_DS_WTICKS, KB_DS_INFLIGHT, KB_DS_IOTICKS, KB_DS_INQUEUE,
       KB_DS_NR };

struct kb_disk {
	char name[64];			/* the disk's sysfs name: "nullb0" */
	unsigned int major, minor;
	uint64_t before[KB_DS_NR], after[KB_DS_NR];
	uint64_t t_before_ns, t_after_ns;
	bool ok;			/* both readings taken */
};

/*
 * The disks of device paths devs[0..n) (duplicates once) into *disks
 * (malloc'ed): the block devices only.  Returns their count.
 */
size_t kb_disks_of(const char *sysfs, char *const *devs, size_t n, struct kb_disk **disks);
/* Read disk d's stat at t_ns: before (first) or after; false if unreadable. */
bool kb_disk_read(const char *sysfs, struct kb_disk *d, bool after, uint64_t t_ns);
/* After minus before of field k (KB_DS_*). */
uint64_t kb_disk_delta(const struct kb_disk *d, int k);

#endif /* KIOBENCH_SENSORS_H */
