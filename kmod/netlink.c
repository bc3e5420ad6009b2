// SPDX-License-Identifier: GPL-2.0
/*
 * Generic netlink family "kiobench": operations on the registry of jobs
 * (job.c), under its lock, and each job's debugfs directory.  The family's
 * operations run in parallel, without genl_mutex, so that a request that
 * waits (for a device to open, for a job to drain) holds up no other
 * family's.
 * Documentation/netlink/specs/kiobench.yaml describes the family; types and
 * ranges are checked by the policies below, the handlers check presence,
 * duplicates, cross-attribute rules and state.
 *
 * A job belongs to the socket that created it, as nl80211's socket-owned
 * interfaces do: when that socket is released (its process exited, was
 * killed or closed it), a NETLINK_URELEASE notifier marks the socket's jobs
 * and a work item stops and destroys them.  A job created with "detach"
 * belongs to no socket, runs at most max_detached_runtime, and is destroyed
 * if it has not been started max_detached_runtime after its creation.
 */
#include <linux/bitmap.h>
#include <linux/capability.h>
#include <linux/cpumask.h>
#include <linux/ioprio.h>
#include <linux/log2.h>
#include <linux/netlink.h>
#include <linux/notifier.h>
#include <linux/slab.h>
#include <linux/workqueue.h>
#include <net/genetlink.h>
#include <kunit/visibility.h>

#include "kiobench.h"

#define KB_DEF_BS	4096

static struct genl_family kb_family;

/* ---- policies and plain settings ---------------------------------------- */

/*
 * A job setting that a request attribute sets one to one and the job's
 * status puts back: the kb_config field @off, named as the attribute, of
 * the attribute's @type; @zero_absent: a zero (a flag that is off, a limit
 * that is not set) is absent from the status.  A field that is missing, or
 * whose C type is not the attribute's, fails the build (netlink-gen.h).
 */
struct kb_scalar {
	u16 attr;
	u8 type;		/* NLA_FLAG, NLA_U8, NLA_U32 or NLA_U64 */
	bool zero_absent;
	size_t off;
};

#define KB_SCALAR(_attr, _field, _type, _zero_absent) {			\
	.attr = _attr,							\
	.type = _type,							\
	.zero_absent = _zero_absent,					\
	.off = offsetof(struct kb_config, _field),			\
}

/* The policies and kb_scalars, from the spec: tools/gen-kmod-nl.py. */
#include "netlink-gen.h"

/* ---- request checks ------------------------------------------------------ */

static int kb_check_admin(struct sk_buff *skb, struct netlink_ext_ack *extack)
{
	if (netlink_capable(skb, CAP_SYS_ADMIN))
		return 0;
	NL_SET_ERR_MSG(extack, "kiobench needs CAP_SYS_ADMIN");
	return -EPERM;
}

/*
 * Netlink keeps the last of repeated attributes; a benchmark request that
 * says two things must be refused instead.  @multi is the one type that may
 * repeat (0: none).
 */
static int kb_reject_dups(const struct nlattr *head, int len, int maxtype,
			  int multi, struct netlink_ext_ack *extack)
{
	DECLARE_BITMAP(seen, KIOBENCH_A_MAX + 1) = {};
	const struct nlattr *a;
	int rem;

	nla_for_each_attr(a, head, len, rem) {
		int type = nla_type(a);

		if (type > maxtype || type > KIOBENCH_A_MAX || type == multi)
			continue;
		if (__test_and_set_bit(type, seen)) {
			NL_SET_ERR_MSG_ATTR(extack, a, "attribute given twice");
			return -EINVAL;
		}
	}
	return 0;
}

/* What every request that carries attributes must pass first. */
static int kb_check_request(struct sk_buff *skb, struct genl_info *info)
{
	int err = kb_check_admin(skb, info->extack);

	if (err)
		return err;
	return kb_reject_dups(nlmsg_attrdata(info->nlhdr, GENL_HDRLEN),
			      nlmsg_attrlen(info->nlhdr, GENL_HDRLEN),
			      KIOBENCH_A_MAX, 0, info->extack);
}

/* ---- job configuration --------------------------------------------------- */

static int kb_parse_devices(struct genl_info *info, struct kb_config *cfg)
{
	const struct nlattr *a;
	int rem;

	if (GENL_REQ_ATTR_CHECK(info, KIOBENCH_A_DEVICES))
		return -EINVAL;
	nla_for_each_nested(a, info->attrs[KIOBENCH_A_DEVICES], rem) {
		if (cfg->nr_devs == KB_MAX_DEVICES) {
			NL_SET_ERR_MSG_ATTR(info->extack, a,
					    "devices: at most "
					    __stringify(KB_MAX_DEVICES) " devices");
			return -E2BIG;
		}
		cfg->paths[cfg->nr_devs] = nla_strdup(a, GFP_KERNEL);
		if (!cfg->paths[cfg->nr_devs])
			return -ENOMEM;
		cfg->nr_devs++;
	}
	if (!cfg->nr_devs) {
		NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[KIOBENCH_A_DEVICES],
				    "devices: needs at least one path");
		return -EINVAL;
	}
	return 0;
}

/* One direction's sizes (bssplit, bssplit-write, bssplit-trim), @attr. */
static int kb_parse_bss_dir(struct genl_info *info, struct kb_config *cfg,
			    unsigned int dir, const struct nlattr *attr)
{
	struct netlink_ext_ack *extack = info->extack;
	struct nlattr *tb[KIOBENCH_BSS_A_MAX + 1];
	struct kb_bss_dir *t = &cfg->bsd[dir];
	const struct nlattr *a;
	u32 weight = 0;
	int rem, err;

	t->first = cfg->nr_bss;
	nla_for_each_nested(a, attr, rem) {
		struct kb_bss *e = &cfg->bss[cfg->nr_bss];

		if (cfg->nr_bss - t->first == KB_MAX_BSSPLIT) {
			NL_SET_ERR_MSG_ATTR(extack, a,
					    "bssplit: at most "
					    __stringify(KB_MAX_BSSPLIT) " entries");
			return -E2BIG;
		}
		err = kb_reject_dups(nla_data(a), nla_len(a), KIOBENCH_BSS_A_MAX,
				     0, extack);
		if (err)
			return err;
		err = nla_parse_nested(tb, KIOBENCH_BSS_A_MAX, a,
				       kb_bss_entry_policy, extack);
		if (err)
			return err;
		if (NL_REQ_ATTR_CHECK(extack, a, tb, KIOBENCH_BSS_A_SIZE))
			return -EINVAL;
		e->size = nla_get_u32(tb[KIOBENCH_BSS_A_SIZE]);
		if (e->size % SECTOR_SIZE) {
			NL_SET_ERR_MSG_ATTR(extack, tb[KIOBENCH_BSS_A_SIZE],
					    "bssplit size: must be a multiple of 512");
			return -EINVAL;
		}
		weight += tb[KIOBENCH_BSS_A_WEIGHT] ?
			  nla_get_u32(tb[KIOBENCH_BSS_A_WEIGHT]) : 1;
		e->cum_weight = weight;
		cfg->min_bs = min(cfg->min_bs, e->size);
		cfg->max_bs = max(cfg->max_bs, e->size);
		cfg->nr_bss++;
	}
	t->nr = cfg->nr_bss - t->first;
	if (!t->nr) {
		NL_SET_ERR_MSG_ATTR(extack, attr, "bssplit: needs at least one entry");
		return -EINVAL;
	}
	t->total_weight = weight;
	return 0;
}

/*
 * bsrange: bit d makes list d (bssplit, bssplit-write, bssplit-trim) a
 * range, low then high; a direction taking the previous one's list takes
 * its range too.
 */
static int kb_parse_bsrange(struct genl_info *info, struct kb_config *cfg,
			    const int *attrs)
{
	struct nlattr *a = info->attrs[KIOBENCH_A_BSRANGE];
	unsigned int d;

	for (d = 0; d < KB_BSS_DIRS; d++) {
		struct kb_bss_dir *t = &cfg->bsd[d];
		const struct kb_bss *b = cfg->bss + t->first;

		if (!(cfg->bsrange & BIT(d))) {
			if (d && t->first == cfg->bsd[d - 1].first)
				t->range = cfg->bsd[d - 1].range;
			continue;
		}
		if (!info->attrs[attrs[d]]) {
			NL_SET_ERR_MSG_ATTR(info->extack, a,
					    "bsrange: a bit without its bssplit list");
			return -EINVAL;
		}
		if (t->nr != 2 || b[0].size > b[1].size) {
			NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[attrs[d]],
					    "bsrange: a range's list is two sizes, low then high");
			return -EINVAL;
		}
		t->range = true;
	}
	return 0;
}

/*
 * The directions' sizes: bssplit's (4096 bytes when absent) for reads,
 * bssplit-write's for writes, else the reads'; bssplit-trim's for trims,
 * else the writes' (fio's bs=R,W,T: a value not given takes the last one).
 */
static int kb_parse_bssplit(struct genl_info *info, struct kb_config *cfg)
{
	static const int attrs[KB_BSS_DIRS] = {
		KIOBENCH_A_BSSPLIT, KIOBENCH_A_BSSPLIT_WRITE, KIOBENCH_A_BSSPLIT_TRIM,
	};
	unsigned int d;
	int err;

	cfg->min_bs = U32_MAX;
	for (d = 0; d < KB_BSS_DIRS; d++) {
		if (info->attrs[attrs[d]]) {
			err = kb_parse_bss_dir(info, cfg, d, info->attrs[attrs[d]]);
			if (err)
				return err;
		} else if (d) {
			cfg->bsd[d] = cfg->bsd[d - 1];
		} else {
			cfg->bss[0] = (struct kb_bss){ .size = KB_DEF_BS, .cum_weight = 1 };
			cfg->nr_bss = 1;
			cfg->bsd[0] = (struct kb_bss_dir){ .nr = 1, .total_weight = 1 };
			cfg->min_bs = KB_DEF_BS;
			cfg->max_bs = max(cfg->max_bs, KB_DEF_BS);
		}
	}
	return kb_parse_bsrange(info, cfg, attrs);
}

/* One zone of random-zones, appended to its direction's. */
static int kb_parse_zone(const struct nlattr *a, struct kb_zones *zs,
			 struct netlink_ext_ack *extack)
{
	struct nlattr *tb[KIOBENCH_ZONE_A_MAX + 1];
	struct kb_zone *z;
	unsigned int d;
	bool abs;
	int err;

	err = kb_reject_dups(nla_data(a), nla_len(a), KIOBENCH_ZONE_A_MAX, 0,
			     extack);
	if (!err)
		err = nla_parse_nested(tb, KIOBENCH_ZONE_A_MAX, a,
				       kb_zone_entry_policy, extack);
	if (err)
		return err;
	if (NL_REQ_ATTR_CHECK(extack, a, tb, KIOBENCH_ZONE_A_DIR) ||
	    NL_REQ_ATTR_CHECK(extack, a, tb, KIOBENCH_ZONE_A_ACCESS_PCT))
		return -EINVAL;
	abs = tb[KIOBENCH_ZONE_A_SIZE];
	if (abs == !!tb[KIOBENCH_ZONE_A_SIZE_PCT]) {
		NL_SET_ERR_MSG_ATTR(extack, a,
				    "random-zones: a zone needs size-pct or size, not both");
		return -EINVAL;
	}
	d = nla_get_u8(tb[KIOBENCH_ZONE_A_DIR]);
	if ((zs->nr[0] || zs->nr[1]) && zs->abs != abs) {
		NL_SET_ERR_MSG_ATTR(extack, a,
				    "random-zones: zones are all size-pct or all size");
		return -EINVAL;
	}
	if (zs->nr[d] == KB_MAX_ZONES) {
		NL_SET_ERR_MSG_ATTR(extack, a, "random-zones: at most "
				    __stringify(KB_MAX_ZONES) " zones per direction");
		return -E2BIG;
	}
	if (abs && nla_get_u64(tb[KIOBENCH_ZONE_A_SIZE]) % SECTOR_SIZE) {
		NL_SET_ERR_MSG_ATTR(extack, tb[KIOBENCH_ZONE_A_SIZE],
				    "random-zones size: must be a multiple of 512");
		return -EINVAL;
	}
	zs->abs = abs;
	z = &zs->z[d][zs->nr[d]++];
	z->access = nla_get_u8(tb[KIOBENCH_ZONE_A_ACCESS_PCT]);
	z->size = abs ? nla_get_u64(tb[KIOBENCH_ZONE_A_SIZE]) :
			nla_get_u8(tb[KIOBENCH_ZONE_A_SIZE_PCT]);
	return 0;
}

/* fio's zipf and pareto: the table of the ranks' inverse distribution. */
static int kb_parse_cdf(struct genl_info *info, struct kb_config *cfg)
{
	struct nlattr *attr = info->attrs[KIOBENCH_A_RANDOM_CDF];
	struct netlink_ext_ack *extack = info->extack;
	int len;

	if (!attr)
		return 0;
	len = nla_len(attr);
	if (!cfg->random || !cfg->norandommap || cfg->zones) {
		NL_SET_ERR_MSG_ATTR(extack, attr,
				    "random-cdf: needs random and norandommap, not random-zones");
		return -EINVAL;
	}
	BUILD_BUG_ON(sizeof(*cfg->cdf) != 16);
	if (len % sizeof(*cfg->cdf) || len < 2 * sizeof(*cfg->cdf)) {
		NL_SET_ERR_MSG_ATTR(extack, attr,
				    "random-cdf: not an array of 2 or more struct kiobench_cdf_ent");
		return -EINVAL;
	}
	cfg->cdf = kvmalloc(len, GFP_KERNEL);
	if (!cfg->cdf)
		return -ENOMEM;
	memcpy(cfg->cdf, nla_data(attr), len);
	cfg->nr_cdf = len / sizeof(*cfg->cdf);
	if (kb_cdf_check(cfg->cdf, cfg->nr_cdf)) {
		NL_SET_ERR_MSG_ATTR(extack, attr,
				    "random-cdf: rank must rise and cum not fall from 0, cum to 2^32");
		return -EINVAL;
	}
	return 0;
}

/*
 * fio's random_distribution=zoned/zoned_abs: random offsets without the
 * random map (fio turns its map off for any distribution but uniform).
 */
static int kb_parse_zones(struct genl_info *info, struct kb_config *cfg)
{
	struct nlattr *attr = info->attrs[KIOBENCH_A_RANDOM_ZONES];
	struct netlink_ext_ack *extack = info->extack;
	const struct nlattr *a;
	unsigned int d;
	int rem, err;

	if (!attr)
		return 0;
	if (!cfg->random || !cfg->norandommap) {
		NL_SET_ERR_MSG_ATTR(extack, attr,
				    "random-zones: needs random and norandommap");
		return -EINVAL;
	}
	cfg->zones = kzalloc(sizeof(*cfg->zones), GFP_KERNEL);
	if (!cfg->zones)
		return -ENOMEM;
	nla_for_each_nested(a, attr, rem) {
		err = kb_parse_zone(a, cfg->zones, extack);
		if (err)
			return err;
	}
	for (d = 0; d < KIOBENCH_NR_DIRS; d++) {
		if (cfg->zones->nr[d] && kb_zones_build(cfg->zones, d)) {
			NL_SET_ERR_MSG_ATTR(extack, attr,
					    "random-zones: a direction's access-pct must add up to 100, its size-pct to at most 100");
			return -EINVAL;
		}
	}
	if (!cfg->zones->nr[KIOBENCH_DIR_READ] &&
	    !cfg->zones->nr[KIOBENCH_DIR_WRITE]) {
		NL_SET_ERR_MSG_ATTR(extack, attr, "random-zones: needs at least one entry");
		return -EINVAL;
	}
	return 0;
}

static int kb_parse_cpus(struct genl_info *info, struct kb_config *cfg)
{
	const struct nlattr *a = info->attrs[KIOBENCH_A_CPUS];
	unsigned int i, n = nla_len(a) / sizeof(u32);

	if (!n || nla_len(a) % sizeof(u32)) {
		NL_SET_ERR_MSG_ATTR(info->extack, a,
				    "cpus: must be a non-empty array of u32");
		return -EINVAL;
	}
	cfg->cpus = kmemdup(nla_data(a), n * sizeof(u32), GFP_KERNEL);
	if (!cfg->cpus)
		return -ENOMEM;
	cfg->nr_cpus = n;
	for (i = 0; i < n; i++) {
		if (cfg->cpus[i] >= nr_cpu_ids || !cpu_possible(cfg->cpus[i])) {
			KB_ERR_FMT(info->extack, a, "cpus: no such CPU",
				   "cpus: no CPU %u (CPUs: 0..%u)", cfg->cpus[i],
				   nr_cpu_ids - 1);
			return -EINVAL;
		}
		/*
		 * A worker's kthread is bound, and woken to wait for the
		 * start, as the job is made: bound to an offline CPU, the
		 * scheduler would let it run anywhere.
		 */
		if (!cpu_online(cfg->cpus[i])) {
			KB_ERR_FMT(info->extack, a, "cpus: a CPU is offline",
				   "cpus: CPU %u is offline", cfg->cpus[i]);
			return -EINVAL;
		}
	}
	return 0;
}

/* The plain settings the request gives; the others keep their defaults. */
static void kb_parse_scalars(struct nlattr **tb, struct kb_config *cfg)
{
	const struct kb_scalar *sc;

	for (sc = kb_scalars; sc < kb_scalars + ARRAY_SIZE(kb_scalars); sc++) {
		const struct nlattr *a = tb[sc->attr];
		void *field = (void *)cfg + sc->off;

		if (!a)
			continue;
		switch (sc->type) {
		case NLA_FLAG:
			*(bool *)field = true;
			break;
		case NLA_U8:
			*(u8 *)field = nla_get_u8(a);
			break;
		case NLA_U32:
			*(u32 *)field = nla_get_u32(a);
			break;
		case NLA_U64:
			*(u64 *)field = nla_get_u64(a);
			break;
		}
	}
}

/* What a setting is when the request does not give it: 0 unless here. */
static void kb_config_defaults(struct kb_config *cfg)
{
	cfg->rwmix_read = 100;
	cfg->iodepth = 1;
	cfg->numjobs = 1;
	cfg->seed = KIOBENCH_DEFAULT_SEED;
	cfg->interval_ns = KB_DEF_INTERVAL_NS;
	cfg->percentage_random = 100;
	cfg->percentage_random_write = 100;
	cfg->do_verify = 1;
	cfg->trim_verify_zero = 1;
	cfg->dedupe_working_set_percentage = 5;
}

static u64 kb_get_u64(struct nlattr **tb, int type, u64 def)
{
	return tb[type] ? nla_get_u64(tb[type]) : def;
}

static u8 kb_get_u8(struct nlattr **tb, int type, u8 def)
{
	return tb[type] ? nla_get_u8(tb[type]) : def;
}

/*
 * fio's prioclass and prio for every bio, and its cmdprio_percentage share
 * of each direction with cmdprio_class (realtime unless given) and cmdprio,
 * the writes' as the reads' unless their -write attributes say otherwise:
 * bi_ioprio values composed once here, so that a worker only copies one
 * (worker.c).
 */
static void kb_parse_prio(struct nlattr **tb, struct kb_config *cfg)
{
	const u8 w = KIOBENCH_DIR_WRITE, r = KIOBENCH_DIR_READ;
	unsigned int d;

	cfg->ioprio = IOPRIO_PRIO_VALUE(cfg->prioclass, cfg->prio);
	cfg->cmdprio_pct[r] = kb_get_u8(tb, KIOBENCH_A_CMDPRIO_PERCENTAGE, 0);
	cfg->cmdprio_class[r] = kb_get_u8(tb, KIOBENCH_A_CMDPRIO_CLASS,
					  IOPRIO_CLASS_RT);
	cfg->cmdprio[r] = kb_get_u8(tb, KIOBENCH_A_CMDPRIO, 0);
	cfg->cmdprio_pct[w] = kb_get_u8(tb, KIOBENCH_A_CMDPRIO_PERCENTAGE_WRITE,
					cfg->cmdprio_pct[r]);
	cfg->cmdprio_class[w] = kb_get_u8(tb, KIOBENCH_A_CMDPRIO_CLASS_WRITE,
					  cfg->cmdprio_class[r]);
	cfg->cmdprio[w] = kb_get_u8(tb, KIOBENCH_A_CMDPRIO_WRITE,
				    cfg->cmdprio[r]);
	for (d = 0; d < KIOBENCH_NR_DIRS; d++)
		cfg->cmdprio_ioprio[d] = IOPRIO_PRIO_VALUE(cfg->cmdprio_class[d],
							   cfg->cmdprio[d]);
	cfg->cmdprio_any = cfg->cmdprio_pct[r] || cfg->cmdprio_pct[w];
}

/*
 * fio's thinktime: a pause after every thinktime-blocks completions (1
 * unless only thinktime-iotime-ns is given) or thinktime-iotime-ns of I/O,
 * in the closed loop or the open one (rate-iops, whose arrivals then catch
 * up unless rate-ignore-thinktime).
 */
static int kb_parse_think(struct genl_info *info, struct kb_config *cfg)
{
	static const int parts[] = { KIOBENCH_A_THINKTIME_SPIN_NS,
				     KIOBENCH_A_THINKTIME_BLOCKS,
				     KIOBENCH_A_THINKTIME_IOTIME_NS };
	struct nlattr **tb = info->attrs;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(parts); i++) {
		if (tb[parts[i]] && !tb[KIOBENCH_A_THINKTIME_NS]) {
			NL_SET_ERR_MSG_ATTR(info->extack, tb[parts[i]],
					    "thinktime: needs thinktime-ns");
			return -EINVAL;
		}
	}
	if (cfg->rate_ignore_thinktime &&
	    (!tb[KIOBENCH_A_THINKTIME_NS] || !cfg->rate_iops)) {
		NL_SET_ERR_MSG_ATTR(info->extack,
				    tb[KIOBENCH_A_RATE_IGNORE_THINKTIME],
				    "rate-ignore-thinktime: needs rate-iops and thinktime-ns");
		return -EINVAL;
	}
	if (!tb[KIOBENCH_A_THINKTIME_NS])
		return 0;
	cfg->thinktime_ns = nla_get_u64(tb[KIOBENCH_A_THINKTIME_NS]);
	cfg->thinktime_spin_ns = kb_get_u64(tb, KIOBENCH_A_THINKTIME_SPIN_NS, 0);
	cfg->thinktime_iotime_ns = kb_get_u64(tb, KIOBENCH_A_THINKTIME_IOTIME_NS, 0);
	if (tb[KIOBENCH_A_THINKTIME_BLOCKS])
		cfg->thinktime_blocks = nla_get_u32(tb[KIOBENCH_A_THINKTIME_BLOCKS]);
	else if (!cfg->thinktime_iotime_ns)
		cfg->thinktime_blocks = 1;
	return 0;
}

/*
 * fio's latency_target, latency_window, latency_percentile and latency_run
 * (latt.c): the others only with latency-target-ns; percentile 100 % when
 * absent.
 */
static int kb_parse_latt(struct genl_info *info, struct kb_config *cfg)
{
	static const int parts[] = { KIOBENCH_A_LATENCY_WINDOW_NS,
				     KIOBENCH_A_LATENCY_PERCENTILE_PPM,
				     KIOBENCH_A_LATENCY_RUN };
	struct nlattr **tb = info->attrs;
	struct nlattr *t = tb[KIOBENCH_A_LATENCY_TARGET_NS];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(parts); i++) {
		if (tb[parts[i]] && !t) {
			NL_SET_ERR_MSG_ATTR(info->extack, tb[parts[i]],
					    "latency target: needs latency-target-ns");
			return -EINVAL;
		}
	}
	if (!t)
		return 0;
	if (cfg->rate_iops || cfg->thinktime_ns || cfg->verify) {
		NL_SET_ERR_MSG_ATTR(info->extack, t,
				    "latency-target-ns: not with rate-iops, thinktime-ns or verify");
		return -EINVAL;
	}
	cfg->latency_target_ns = nla_get_u64(t);
	if (tb[KIOBENCH_A_LATENCY_WINDOW_NS])
		cfg->latency_window_ns =
			nla_get_u64(tb[KIOBENCH_A_LATENCY_WINDOW_NS]);
	cfg->latency_percentile_ppm = KB_LATT_PPM_ALL;
	if (tb[KIOBENCH_A_LATENCY_PERCENTILE_PPM])
		cfg->latency_percentile_ppm =
			nla_get_u32(tb[KIOBENCH_A_LATENCY_PERCENTILE_PPM]);
	cfg->latency_run = nla_get_flag(tb[KIOBENCH_A_LATENCY_RUN]);
	return 0;
}

/* The settings the workers use; all absent without a target. */
static int kb_put_latt(struct sk_buff *msg, const struct kb_config *cfg)
{
	if (!cfg->latency_target_ns)
		return 0;
	if (nla_put_u64_64bit(msg, KIOBENCH_A_LATENCY_TARGET_NS,
			      cfg->latency_target_ns, KIOBENCH_A_PAD) ||
	    nla_put_u64_64bit(msg, KIOBENCH_A_LATENCY_WINDOW_NS,
			      cfg->latency_window_ns, KIOBENCH_A_PAD) ||
	    nla_put_u32(msg, KIOBENCH_A_LATENCY_PERCENTILE_PPM,
			cfg->latency_percentile_ppm) ||
	    (cfg->latency_run && nla_put_flag(msg, KIOBENCH_A_LATENCY_RUN)))
		return -EMSGSIZE;
	return 0;
}

/*
 * An atomic write is naturally aligned, a power of two in size, and never
 * split (the block layer fails one it would have to split): one transfer
 * size, and an offset that is a multiple of it, so that every offset the
 * workers pick is.  The device's limits are checked with the devices.
 */
static int kb_check_atomic(struct genl_info *info, struct kb_config *cfg)
{
	struct nlattr **tb = info->attrs;

	if (cfg->trim_mode || cfg->write_zeroes) {
		NL_SET_ERR_MSG_ATTR(info->extack, tb[KIOBENCH_A_ATOMIC],
				    "atomic: not with trim-mode or write-zeroes");
		return -EINVAL;
	}
	if (cfg->min_bs != cfg->max_bs || !is_power_of_2(cfg->min_bs) ||
	    cfg->offset % cfg->min_bs) {
		NL_SET_ERR_MSG_ATTR(info->extack, tb[KIOBENCH_A_ATOMIC],
				    "atomic: needs one transfer size, a power of two, and an offset that is a multiple of it");
		return -EINVAL;
	}
	return 0;
}

/*
 * The operations (trim-mode, write-zeroes, fsync, end-fsync, writefua):
 * plain settings, with rules across attributes.  Every one of them writes
 * to the device, or (writefua) changes how writes do.
 */
static int kb_check_ops(struct genl_info *info, struct kb_config *cfg)
{
	static const int writers[] = { KIOBENCH_A_TRIM_MODE,
				       KIOBENCH_A_WRITE_ZEROES,
				       KIOBENCH_A_FSYNC,
				       KIOBENCH_A_END_FSYNC,
				       KIOBENCH_A_ATOMIC };
	struct netlink_ext_ack *extack = info->extack;
	struct nlattr **tb = info->attrs;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(writers); i++) {
		if (tb[writers[i]] && !cfg->allow_writes) {
			NL_SET_ERR_MSG_ATTR(extack, tb[writers[i]],
					    "trim-mode/write-zeroes/fsync/end-fsync/atomic: write to the device; the request must set allow-writes");
			return -EINVAL;
		}
	}
	if (cfg->trim_mode && cfg->rwmix_read) {
		NL_SET_ERR_MSG_ATTR(extack, tb[KIOBENCH_A_TRIM_MODE],
				    "trim-mode: needs rwmix-read 0");
		return -EINVAL;
	}
	if (cfg->write_zeroes && (cfg->trim_mode || cfg->writefua)) {
		NL_SET_ERR_MSG_ATTR(extack, tb[KIOBENCH_A_WRITE_ZEROES],
				    "write-zeroes: not with trim-mode or writefua (REQ_FUA is for REQ_OP_WRITE only)");
		return -EINVAL;
	}
	if (cfg->zeroes_unmap && !cfg->write_zeroes) {
		NL_SET_ERR_MSG_ATTR(extack, tb[KIOBENCH_A_ZEROES_UNMAP],
				    "zeroes-unmap: needs write-zeroes");
		return -EINVAL;
	}
	return cfg->atomic ? kb_check_atomic(info, cfg) : 0;
}

/* How the workers submit and wait, and what they measure. */
static int kb_parse_modes(struct genl_info *info, struct kb_config *cfg)
{
	struct nlattr **tb = info->attrs;

	if (tb[KIOBENCH_A_RATE_PROCESS] && !tb[KIOBENCH_A_RATE_IOPS]) {
		NL_SET_ERR_MSG_ATTR(info->extack, tb[KIOBENCH_A_RATE_PROCESS],
				    "rate-process: needs rate-iops");
		return -EINVAL;
	}
	if (tb[KIOBENCH_A_RATE_PROCESS])
		cfg->rate_process = nla_get_u8(tb[KIOBENCH_A_RATE_PROCESS]);
	/* each direction on its own schedule: a mix of reads and writes */
	if (cfg->rate_iops_write &&
	    (!cfg->rate_iops || !cfg->rwmix_read || cfg->rwmix_read >= 100 ||
	     cfg->trim_mode || cfg->verify || cfg->fsync)) {
		NL_SET_ERR_MSG_ATTR(info->extack, tb[KIOBENCH_A_RATE_IOPS_WRITE],
				    "rate-iops-write: needs rate-iops and rwmix-read 1 to 99; not with trim-mode, verify or fsync");
		return -EINVAL;
	}
	kb_parse_prio(tb, cfg);
	return kb_check_ops(info, cfg) ?: kb_parse_think(info, cfg) ?:
	       kb_parse_zones(info, cfg) ?: kb_parse_cdf(info, cfg);
}

/*
 * fio's cmdprio_bssplit: each direction's sizes with their percent and
 * priority, one priority a direction, which takes the place of that
 * direction's cmdprio-class and cmdprio (kb_parse_prio()'s).
 */
static int kb_parse_cmdprio_bs(struct genl_info *info, struct kb_config *cfg)
{
	const struct nlattr *attr = info->attrs[KIOBENCH_A_CMDPRIO_BSSPLIT];
	struct netlink_ext_ack *extack = info->extack;
	const struct kiobench_cmdprio_bs_ent *e;
	bool seen[KIOBENCH_NR_DIRS] = {};
	unsigned int i, j, n;

	if (!attr)
		return 0;
	n = nla_len(attr) / sizeof(*e);
	e = nla_data(attr);
	if (!n || nla_len(attr) % sizeof(*e)) {
		NL_SET_ERR_MSG_ATTR(extack, attr,
				    "cmdprio-bssplit: not a table of struct kiobench_cmdprio_bs_ent");
		return -EINVAL;
	}
	if (info->attrs[KIOBENCH_A_CMDPRIO_PERCENTAGE] ||
	    info->attrs[KIOBENCH_A_CMDPRIO_PERCENTAGE_WRITE]) {
		NL_SET_ERR_MSG_ATTR(extack, attr,
				    "cmdprio-bssplit: not with cmdprio-percentage");
		return -EINVAL;
	}
	for (i = 0; i < n; i++, e++) {
		u8 d = e->dir;

		if (d > KIOBENCH_DIR_WRITE || !e->pct || e->pct > 100 ||
		    e->class > IOPRIO_CLASS_IDLE || e->level > 7) {
			NL_SET_ERR_MSG_ATTR(extack, attr,
					    "cmdprio-bssplit: dir 0 or 1, pct 1 to 100, class 0 to 3, level 0 to 7");
			return -EINVAL;
		}
		if (seen[d] && (e->class != cfg->cmdprio_class[d] ||
				e->level != cfg->cmdprio[d])) {
			NL_SET_ERR_MSG_ATTR(extack, attr,
					    "cmdprio-bssplit: one class and level a direction");
			return -EINVAL;
		}
		for (j = 0; j < cfg->nr_cmdprio_bs[d]; j++) {
			if (cfg->cmdprio_bs[d][j].size == e->size) {
				NL_SET_ERR_MSG_ATTR(extack, attr,
						    "cmdprio-bssplit: each size once a direction");
				return -EINVAL;
			}
		}
		if (cfg->nr_cmdprio_bs[d] == KB_MAX_BSSPLIT) {
			NL_SET_ERR_MSG_ATTR(extack, attr,
					    "cmdprio-bssplit: at most 16 a direction");
			return -EINVAL;
		}
		seen[d] = true;
		cfg->cmdprio_class[d] = e->class;
		cfg->cmdprio[d] = e->level;
		cfg->cmdprio_ioprio[d] = IOPRIO_PRIO_VALUE(e->class, e->level);
		cfg->cmdprio_bs[d][cfg->nr_cmdprio_bs[d]++] =
			(struct kb_cmdprio_bs){ e->size, e->pct };
	}
	cfg->cmdprio_any = true;
	return 0;
}

/*
 * fio's offset patterns: rw=randread:N (rw-seq-nr) with rw_sequencer,
 * rw=write:N (rw-seq-add), zonemode=strided (zonesize, zonerange,
 * zoneskip), and ba (blockalign).  Plain settings, with rules across attributes; zonerange is
 * zonesize's when absent, as fio's.
 */
static int kb_parse_pattern(struct genl_info *info, struct kb_config *cfg)
{
	struct netlink_ext_ack *extack = info->extack;
	struct nlattr **tb = info->attrs;

	if (tb[KIOBENCH_A_RW_SEQ_NR] && (!cfg->random || cfg->zones || cfg->cdf)) {
		NL_SET_ERR_MSG_ATTR(extack, tb[KIOBENCH_A_RW_SEQ_NR],
				    "rw-seq-nr: only with random, not with random-zones or random-cdf");
		return -EINVAL;
	}
	if (tb[KIOBENCH_A_RW_SEQUENCER] && !tb[KIOBENCH_A_RW_SEQ_NR]) {
		NL_SET_ERR_MSG_ATTR(extack, tb[KIOBENCH_A_RW_SEQUENCER],
				    "rw-sequencer: needs rw-seq-nr");
		return -EINVAL;
	}
	if (tb[KIOBENCH_A_RW_SEQ_ADD] &&
	    (cfg->random || cfg->rw_seq_add % SECTOR_SIZE)) {
		NL_SET_ERR_MSG_ATTR(extack, tb[KIOBENCH_A_RW_SEQ_ADD],
				    "rw-seq-add: a multiple of 512, not with random");
		return -EINVAL;
	}
	if (cfg->seq_wrap && !cfg->rw_seq_add) {
		NL_SET_ERR_MSG_ATTR(extack, tb[KIOBENCH_A_SEQ_WRAP],
				    "seq-wrap: only with rw-seq-add");
		return -EINVAL;
	}
	if ((tb[KIOBENCH_A_ZONERANGE] || tb[KIOBENCH_A_ZONESKIP]) &&
	    !cfg->zonesize) {
		NL_SET_ERR_MSG_ATTR(extack, tb[KIOBENCH_A_ZONERANGE] ?:
				    tb[KIOBENCH_A_ZONESKIP],
				    "zonerange/zoneskip: need zonesize");
		return -EINVAL;
	}
	if (cfg->random_lfsr && (!cfg->random || cfg->norandommap)) {
		NL_SET_ERR_MSG_ATTR(extack, tb[KIOBENCH_A_RANDOM_LFSR],
				    "random-lfsr: needs random, not with norandommap");
		return -EINVAL;
	}
	if (tb[KIOBENCH_A_BLOCKALIGN] &&
	    (!cfg->random || !cfg->norandommap || cfg->cdf ||
	     cfg->blockalign % SECTOR_SIZE)) {
		NL_SET_ERR_MSG_ATTR(extack, tb[KIOBENCH_A_BLOCKALIGN],
				    "blockalign: a multiple of 512, only with random and norandommap, not with random-cdf");
		return -EINVAL;
	}
	if (!cfg->zonesize)
		return 0;
	cfg->zonerange = cfg->zonerange ?: cfg->zonesize;
	if ((cfg->zonesize | cfg->zonerange | cfg->zoneskip) % SECTOR_SIZE) {
		NL_SET_ERR_MSG_ATTR(extack, tb[KIOBENCH_A_ZONESIZE],
				    "zonesize/zonerange/zoneskip: must be multiples of 512");
		return -EINVAL;
	}
	if (cfg->zonerange < cfg->max_bs) {
		KB_ERR_FMT(extack, tb[KIOBENCH_A_ZONERANGE] ?: tb[KIOBENCH_A_ZONESIZE],
			   "zonerange: below the largest transfer size",
			   "zonerange: %llu is below the largest transfer size %u",
			   cfg->zonerange, cfg->max_bs);
		return -EINVAL;
	}
	if (cfg->zonemode || cfg->zones || cfg->cdf || cfg->rw_seq_nr > 1 ||
	    cfg->percentage_random < 100 || cfg->percentage_random_write < 100) {
		NL_SET_ERR_MSG_ATTR(extack, tb[KIOBENCH_A_ZONESIZE],
				    "zonesize: not with zonemode, random-zones, random-cdf, rw-seq-nr or percentage-random");
		return -EINVAL;
	}
	return 0;
}

/* Fills @cfg from a JOB_NEW request; kb_config_free() frees it after. */
VISIBLE_IF_KUNIT int kb_parse_config(struct genl_info *info,
				     struct kb_config *cfg)
{
	struct netlink_ext_ack *extack = info->extack;
	struct nlattr **tb = info->attrs;
	int err;

	err = kb_parse_devices(info, cfg);
	if (err)
		return err;
	kb_config_defaults(cfg);
	kb_parse_scalars(tb, cfg);
	if (tb[KIOBENCH_A_JOB_NAME])
		nla_strscpy(cfg->name, tb[KIOBENCH_A_JOB_NAME], sizeof(cfg->name));
	if (cfg->rwmix_read < 100 && !cfg->allow_writes && !cfg->verify_only) {
		NL_SET_ERR_MSG_ATTR(extack, tb[KIOBENCH_A_RWMIX_READ],
				    "rwmix-read: below 100 writes to the device; the request must set allow-writes");
		return -EINVAL;
	}
	err = kb_parse_bssplit(info, cfg);
	if (err)
		return err;
	if (cfg->numjobs * cfg->nr_devs > KB_MAX_WORKERS) {
		NL_SET_ERR_MSG_ATTR(extack, tb[KIOBENCH_A_NUMJOBS],
				    "numjobs: numjobs x devices must be at most "
				    __stringify(KB_MAX_WORKERS));
		return -E2BIG;
	}
	if (tb[KIOBENCH_A_CPUS]) {
		err = kb_parse_cpus(info, cfg);
		if (err)
			return err;
	} else if (cfg->cpus_shared) {
		NL_SET_ERR_MSG_ATTR(extack, tb[KIOBENCH_A_CPUS_SHARED],
				    "cpus-shared: needs cpus");
		return -EINVAL;
	}
	if (cfg->offset % SECTOR_SIZE || cfg->size % SECTOR_SIZE) {
		NL_SET_ERR_MSG_ATTR(extack, tb[KIOBENCH_A_OFFSET] ?: tb[KIOBENCH_A_SIZE],
				    "offset/size: must be multiples of 512");
		return -EINVAL;
	}
	/* zone-op's are not all bios: zone_mgmt's resets would go unlogged */
	if (cfg->lat_log_all && (!cfg->lat_log || cfg->zone_op)) {
		NL_SET_ERR_MSG_ATTR(extack, tb[KIOBENCH_A_LAT_LOG_ALL],
				    "lat-log-all: needs lat-log, not with zone-op");
		return -EINVAL;
	}
	return kb_parse_modes(info, cfg) ?: kb_parse_verify(info, cfg) ?:
	       kb_parse_data(info, cfg) ?: kb_parse_dedupe(info, cfg) ?:
	       kb_zbd_parse(info, cfg) ?: kb_parse_errors(info, cfg) ?: kb_parse_latt(info, cfg) ?:
	       kb_flow_parse(info, cfg) ?: kb_parse_pattern(info, cfg) ?:
	       kb_parse_cmdprio_bs(info, cfg) ?: kb_parse_submit(info, cfg) ?:
	       kb_replay_parse(info, cfg) ?: kb_pi_parse(info, cfg);
}
EXPORT_SYMBOL_IF_KUNIT(kb_parse_config);

/*
 * A detached job has no socket to end it with: it runs, warm-up included,
 * at most max_detached_runtime, and a longer runtime is refused.
 */
static int kb_parse_detach(struct genl_info *info, struct kb_config *cfg)
{
	struct nlattr **tb = info->attrs;
	u64 cap = (u64)kb_max_detached_runtime * NSEC_PER_SEC;

	cfg->detach = nla_get_flag(tb[KIOBENCH_A_DETACH]);
	if (!cfg->detach)
		return 0;
	if (cfg->runtime_ns > cap || cfg->ramp_ns > cap - cfg->runtime_ns) {
		KB_ERR_FMT(info->extack,
			   tb[KIOBENCH_A_RUNTIME_NS] ?: tb[KIOBENCH_A_RAMP_NS],
			   "runtime-ns: ramp + runtime of a detached job above max_detached_runtime",
			   "runtime-ns: ramp + runtime of a detached job above max_detached_runtime %u s",
			   kb_max_detached_runtime);
		return -ERANGE;
	}
	cfg->max_ns = cap;
	return 0;
}

/* ---- replies and events -------------------------------------------------- */

static int kb_put_stats(struct sk_buff *msg, struct kb_job *job,
			unsigned int dir)
{
	struct kb_counters c;
	struct nlattr *nest;

	kb_job_sum(job, dir, &c, NULL);
	nest = nla_nest_start(msg, KIOBENCH_A_JOB_STATS);
	if (!nest)
		return -EMSGSIZE;
	if (nla_put_u8(msg, KIOBENCH_STAT_A_DIR, dir) ||
	    nla_put_u64_64bit(msg, KIOBENCH_STAT_A_IOS, c.ios, KIOBENCH_STAT_A_PAD) ||
	    nla_put_u64_64bit(msg, KIOBENCH_STAT_A_BYTES, c.bytes, KIOBENCH_STAT_A_PAD) ||
	    nla_put_u64_64bit(msg, KIOBENCH_STAT_A_ERRORS, c.errors, KIOBENCH_STAT_A_PAD) ||
	    nla_put_u64_64bit(msg, KIOBENCH_STAT_A_LAT_MIN, c.lat_min, KIOBENCH_STAT_A_PAD) ||
	    nla_put_u64_64bit(msg, KIOBENCH_STAT_A_LAT_MAX, c.lat_max, KIOBENCH_STAT_A_PAD) ||
	    nla_put_u64_64bit(msg, KIOBENCH_STAT_A_LAT_SUM, c.lat_sum, KIOBENCH_STAT_A_PAD) ||
	    nla_put_u64_64bit(msg, KIOBENCH_STAT_A_LAT_SUMSQ_HI, (u64)(c.lat_sumsq >> 64),
			      KIOBENCH_STAT_A_PAD) ||
	    nla_put_u64_64bit(msg, KIOBENCH_STAT_A_LAT_SUMSQ_LO, (u64)c.lat_sumsq,
			      KIOBENCH_STAT_A_PAD) ||
	    nla_put_u64_64bit(msg, KIOBENCH_STAT_A_ALL_IOS, c.all_ios, KIOBENCH_STAT_A_PAD) ||
	    nla_put_u64_64bit(msg, KIOBENCH_STAT_A_ALL_BYTES, c.all_bytes, KIOBENCH_STAT_A_PAD)) {
		nla_nest_cancel(msg, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(msg, nest);
	return 0;
}

/* The plain settings (kb_scalars); a zero_absent one only when not zero. */
static int kb_put_scalars(struct sk_buff *msg, const struct kb_config *cfg)
{
	const struct kb_scalar *sc;

	for (sc = kb_scalars; sc < kb_scalars + ARRAY_SIZE(kb_scalars); sc++) {
		const void *field = (const void *)cfg + sc->off;
		int err = 0;
		u64 v = 0;

		switch (sc->type) {
		case NLA_FLAG:
			v = *(const bool *)field;
			break;
		case NLA_U8:
			v = *(const u8 *)field;
			break;
		case NLA_U32:
			v = *(const u32 *)field;
			break;
		case NLA_U64:
			v = *(const u64 *)field;
			break;
		}
		if (!v && sc->zero_absent)
			continue;
		switch (sc->type) {
		case NLA_FLAG:
			err = nla_put_flag(msg, sc->attr);
			break;
		case NLA_U8:
			err = nla_put_u8(msg, sc->attr, v);
			break;
		case NLA_U32:
			err = nla_put_u32(msg, sc->attr, v);
			break;
		case NLA_U64:
			err = nla_put_u64_64bit(msg, sc->attr, v, KIOBENCH_A_PAD);
			break;
		}
		if (err)
			return err;
	}
	return 0;
}

/* The cmdprio settings of both directions, the writes' in their own. */
static int kb_put_cmdprio(struct sk_buff *msg, const struct kb_config *cfg)
{
	const u8 w = KIOBENCH_DIR_WRITE, r = KIOBENCH_DIR_READ;

	if (nla_put_u8(msg, KIOBENCH_A_CMDPRIO_PERCENTAGE, cfg->cmdprio_pct[r]) ||
	    nla_put_u8(msg, KIOBENCH_A_CMDPRIO_CLASS, cfg->cmdprio_class[r]) ||
	    nla_put_u8(msg, KIOBENCH_A_CMDPRIO, cfg->cmdprio[r]) ||
	    nla_put_u8(msg, KIOBENCH_A_CMDPRIO_PERCENTAGE_WRITE,
		       cfg->cmdprio_pct[w]) ||
	    nla_put_u8(msg, KIOBENCH_A_CMDPRIO_CLASS_WRITE,
		       cfg->cmdprio_class[w]) ||
	    nla_put_u8(msg, KIOBENCH_A_CMDPRIO_WRITE, cfg->cmdprio[w]))
		return -EMSGSIZE;
	return 0;
}

/* cmdprio_bssplit's table as the workers use it; absent without one. */
static int kb_put_cmdprio_bs(struct sk_buff *msg, const struct kb_config *cfg)
{
	struct kiobench_cmdprio_bs_ent t[2 * KB_MAX_BSSPLIT];
	unsigned int d, i, n = 0;

	for (d = KIOBENCH_DIR_READ; d <= KIOBENCH_DIR_WRITE; d++)
		for (i = 0; i < cfg->nr_cmdprio_bs[d]; i++)
			t[n++] = (struct kiobench_cmdprio_bs_ent){
				.size = cfg->cmdprio_bs[d][i].size, .dir = d,
				.pct = cfg->cmdprio_bs[d][i].pct,
				.class = cfg->cmdprio_class[d],
				.level = cfg->cmdprio[d] };
	if (n && nla_put(msg, KIOBENCH_A_CMDPRIO_BSSPLIT, n * sizeof(*t), t))
		return -EMSGSIZE;
	return 0;
}

/* The thinktime settings the workers use; all absent without a thinktime. */
static int kb_put_think(struct sk_buff *msg, const struct kb_config *cfg)
{
	if (!cfg->thinktime_ns)
		return 0;
	if (nla_put_u64_64bit(msg, KIOBENCH_A_THINKTIME_NS, cfg->thinktime_ns,
			      KIOBENCH_A_PAD) ||
	    nla_put_u64_64bit(msg, KIOBENCH_A_THINKTIME_SPIN_NS,
			      cfg->thinktime_spin_ns, KIOBENCH_A_PAD) ||
	    (cfg->thinktime_blocks &&
	     nla_put_u32(msg, KIOBENCH_A_THINKTIME_BLOCKS, cfg->thinktime_blocks)) ||
	    (cfg->thinktime_iotime_ns &&
	     nla_put_u64_64bit(msg, KIOBENCH_A_THINKTIME_IOTIME_NS,
			       cfg->thinktime_iotime_ns, KIOBENCH_A_PAD)))
		return -EMSGSIZE;
	return 0;
}

/* Direction @d's sizes, as entry nests, into the nest just started. */
static int kb_put_bss_entries(struct sk_buff *msg, const struct kb_config *cfg,
			      unsigned int d)
{
	const struct kb_bss *b = cfg->bss + cfg->bsd[d].first;
	struct nlattr *ent;
	unsigned int i;

	for (i = 0; i < cfg->bsd[d].nr; i++) {
		ent = nla_nest_start(msg, KIOBENCH_BSS_A_ENTRY);
		if (!ent ||
		    nla_put_u32(msg, KIOBENCH_BSS_A_SIZE, b[i].size) ||
		    nla_put_u32(msg, KIOBENCH_BSS_A_WEIGHT, b[i].cum_weight -
				(i ? b[i - 1].cum_weight : 0)))
			return -EMSGSIZE;
		nla_nest_end(msg, ent);
	}
	return 0;
}

/*
 * bssplit, the reads' sizes; bssplit-write and bssplit-trim where the
 * direction has sizes of its own (not the previous direction's).
 */
static int kb_put_bssplit(struct sk_buff *msg, const struct kb_config *cfg)
{
	struct nlattr *nest;

	nest = nla_nest_start(msg, KIOBENCH_A_BSSPLIT);
	if (!nest || kb_put_bss_entries(msg, cfg, KIOBENCH_DIR_READ))
		return -EMSGSIZE;
	nla_nest_end(msg, nest);
	if (cfg->bsd[1].first != cfg->bsd[0].first) {
		nest = nla_nest_start(msg, KIOBENCH_A_BSSPLIT_WRITE);
		if (!nest || kb_put_bss_entries(msg, cfg, KIOBENCH_DIR_WRITE))
			return -EMSGSIZE;
		nla_nest_end(msg, nest);
	}
	if (cfg->bsd[2].first != cfg->bsd[1].first) {
		nest = nla_nest_start(msg, KIOBENCH_A_BSSPLIT_TRIM);
		if (!nest || kb_put_bss_entries(msg, cfg, KIOBENCH_DIR_TRIM))
			return -EMSGSIZE;
		nla_nest_end(msg, nest);
	}
	return 0;
}

/* random-zones, each direction's zones in order; absent without zones. */
static int kb_put_zones(struct sk_buff *msg, const struct kb_zones *zs)
{
	struct nlattr *nest, *ent;
	unsigned int d, i;

	if (!zs)
		return 0;
	nest = nla_nest_start(msg, KIOBENCH_A_RANDOM_ZONES);
	if (!nest)
		return -EMSGSIZE;
	for (d = 0; d < KIOBENCH_NR_DIRS; d++) {
		for (i = 0; i < zs->nr[d]; i++) {
			const struct kb_zone *z = &zs->z[d][i];

			ent = nla_nest_start(msg, KIOBENCH_ZONE_A_ENTRY);
			if (!ent || nla_put_u8(msg, KIOBENCH_ZONE_A_DIR, d) ||
			    nla_put_u8(msg, KIOBENCH_ZONE_A_ACCESS_PCT, z->access) ||
			    (zs->abs ?
			     nla_put_u64_64bit(msg, KIOBENCH_ZONE_A_SIZE, z->size,
					       KIOBENCH_ZONE_A_PAD) :
			     nla_put_u8(msg, KIOBENCH_ZONE_A_SIZE_PCT, z->size)))
				return -EMSGSIZE;
			nla_nest_end(msg, ent);
		}
	}
	nla_nest_end(msg, nest);
	return 0;
}

/*
 * The job's settings, from the kernel's own struct kb_config, in the
 * request's attributes: what a reply says is what the workers do, whoever
 * made the job.  A flag or a limit that is off is absent, as in a request;
 * every other value is put, defaults included.  After the devices, the span
 * the kernel uses on each of them (job-span-len, one per device, in order)
 * and, once the job has started, their integrity as it found them; then
 * the nests and arrays, the plain settings (kb_scalars) and those put
 * by rules of their own.
 */
static int kb_put_config(struct sk_buff *msg, struct kb_job *job)
{
	const struct kb_config *cfg = &job->cfg;
	struct nlattr *nest;
	unsigned int i;

	nest = nla_nest_start(msg, KIOBENCH_A_DEVICES);
	if (!nest)
		return -EMSGSIZE;
	for (i = 0; i < cfg->nr_devs; i++)
		if (nla_put_string(msg, KIOBENCH_DEV_A_PATH, cfg->paths[i]))
			return -EMSGSIZE;
	nla_nest_end(msg, nest);
	for (i = 0; i < cfg->nr_devs; i++)
		if (nla_put_u64_64bit(msg, KIOBENCH_A_JOB_SPAN_LEN,
				      job->devs[i].span_len, KIOBENCH_A_PAD))
			return -EMSGSIZE;
	/* pairs with kb_job_start()'s release: kb_note_integrity()'s record */
	if (smp_load_acquire(&job->state) != KIOBENCH_STATE_NEW)
		for (i = 0; i < cfg->nr_devs; i++)
			if (nla_put_string(msg, KIOBENCH_A_JOB_INTEGRITY_FORMAT,
					   job->devs[i].pi_format ?: "none") ||
			    nla_put_u32(msg, KIOBENCH_A_JOB_INTEGRITY_FLAGS,
					job->devs[i].pi_flags))
				return -EMSGSIZE;
	if (kb_put_bssplit(msg, cfg))
		return -EMSGSIZE;
	if ((cfg->nr_cpus && nla_put(msg, KIOBENCH_A_CPUS,
				     cfg->nr_cpus * sizeof(u32), cfg->cpus)) ||
	    kb_put_scalars(msg, cfg) ||
	    (cfg->detach && nla_put_flag(msg, KIOBENCH_A_DETACH)) ||
	    (cfg->rate_iops &&
	     nla_put_u8(msg, KIOBENCH_A_RATE_PROCESS, cfg->rate_process)) ||
	    (cfg->cmdprio_any && kb_put_cmdprio(msg, cfg)) ||
	    (cfg->nr_write_streams &&
	     (nla_put(msg, KIOBENCH_A_WRITE_STREAMS, cfg->nr_write_streams,
		      cfg->write_streams) ||
	      nla_put_u8(msg, KIOBENCH_A_WRITE_STREAM_SELECT,
			 cfg->write_stream_select))))
		return -EMSGSIZE;
	if (cfg->cdf && nla_put(msg, KIOBENCH_A_RANDOM_CDF,
				cfg->nr_cdf * sizeof(*cfg->cdf), cfg->cdf))
		return -EMSGSIZE;
	return kb_put_think(msg, cfg) ?: kb_put_zones(msg, cfg->zones) ?:
	       kb_put_latt(msg, cfg) ?: kb_put_cmdprio_bs(msg, cfg) ?:
	       (cfg->nice && nla_put_s32(msg, KIOBENCH_A_NICE, cfg->nice) ?
		-EMSGSIZE : 0);
}

/* verify's counts in the job status, and (@settings) its pattern */
static int kb_put_verify(struct sk_buff *msg, struct kb_job *job,
			 bool settings)
{
	const struct kb_config *cfg = &job->cfg;

	if (!job->verify)
		return 0;
	if (nla_put_u64_64bit(msg, KIOBENCH_A_JOB_VERIFIED,
			      kb_verify_count(job, KB_V_OK), KIOBENCH_A_PAD) ||
	    nla_put_u64_64bit(msg, KIOBENCH_A_JOB_VERIFY_CORRUPT,
			      kb_verify_count(job, KB_V_CORRUPT), KIOBENCH_A_PAD) ||
	    nla_put_u64_64bit(msg, KIOBENCH_A_JOB_VERIFY_MISDIRECTED,
			      kb_verify_count(job, KB_V_MISDIRECTED), KIOBENCH_A_PAD) ||
	    nla_put_u64_64bit(msg, KIOBENCH_A_JOB_VERIFY_STALE,
			      kb_verify_count(job, KB_V_STALE), KIOBENCH_A_PAD) ||
	    nla_put_u64_64bit(msg, KIOBENCH_A_JOB_VERIFY_TRIMMED,
			      kb_verify_trimmed(job), KIOBENCH_A_PAD))
		return -EMSGSIZE;
	if (!settings)
		return 0;
	if (cfg->verify_pattern &&
	    nla_put(msg, KIOBENCH_A_VERIFY_PATTERN, cfg->verify_pattern_len,
		    cfg->verify_pattern))
		return -EMSGSIZE;
	if (cfg->buffer_pattern &&
	    nla_put(msg, KIOBENCH_A_BUFFER_PATTERN, cfg->buffer_pattern_len,
		    cfg->buffer_pattern))
		return -EMSGSIZE;
	return 0;
}

/*
 * pi-chk's counts in the job status, in the order of enum
 * kiobench_pi_check, then the first wrong interval's LBA once there is one.
 */
static int kb_pi_put(struct sk_buff *msg, struct kb_job *job)
{
	unsigned int k;
	u64 lba;

	if (!job->pi)
		return 0;
	for (k = 0; k <= KIOBENCH_PI_CHECK_APPTAG; k++)
		if (nla_put_u64_64bit(msg, KIOBENCH_A_JOB_PI_ERRORS,
				      kb_pi_errors(job, k), KIOBENCH_A_PAD))
			return -EMSGSIZE;
	if (kb_pi_first_lba(job, &lba) &&
	    nla_put_u64_64bit(msg, KIOBENCH_A_JOB_PI_FIRST_LBA, lba,
			      KIOBENCH_A_PAD))
		return -EMSGSIZE;
	return 0;
}

/* Room for a job's status: its settings may hold long paths and many CPUs. */
static size_t kb_status_size(const struct kb_config *cfg)
{
	size_t size = NLMSG_GOODSIZE;
	unsigned int i;

	size += nla_total_size(cfg->nr_cpus * sizeof(u32));
	size += nla_total_size(cfg->nr_cdf * sizeof(*cfg->cdf));
	size += nla_total_size(cfg->buffer_pattern_len);
	size += nla_total_size(cfg->nr_write_streams) + nla_total_size(1);
	size += kb_errors_size();
	size += nla_total_size(2 * KB_MAX_BSSPLIT *
			       sizeof(struct kiobench_cmdprio_bs_ent));
	size += nla_total_size(cfg->verify_pattern_len) +
		5 * nla_total_size_64bit(sizeof(u64)) +	/* verify's */
		4 * nla_total_size_64bit(sizeof(u64));	/* pi-chk's */
	size += KB_BSS_DIRS * nla_total_size(0) +	/* an entry: size, weight */
		cfg->nr_bss * nla_total_size(2 * nla_total_size(sizeof(u32)));
	if (cfg->zones)	/* an entry: dir, access and a u64 with its pad */
		size += (cfg->zones->nr[0] + cfg->zones->nr[1]) *
			nla_total_size(2 * nla_total_size(1) +
				       nla_total_size_64bit(8));
	for (i = 0; i < cfg->nr_devs; i++)	/* path, span, integrity */
		size += nla_total_size(strlen(cfg->paths[i]) + 1) +
			nla_total_size_64bit(sizeof(u64)) +
			nla_total_size(KB_INTEGRITY_NAME_ROOM) +
			nla_total_size(sizeof(u32));
	return size;
}

static int kb_put_job(struct sk_buff *msg, struct kb_job *job, u32 portid,
		      u32 seq, int flags, u8 cmd)
{
	u8 state = smp_load_acquire(&job->state);	/* then finish_ns */
	/* compat.h: who may read the events decides what they carry */
	bool settings = cmd != KIOBENCH_CMD_JOB_NTF || KB_NTF_SETTINGS;
	u64 elapsed = 0;
	unsigned int dir;
	void *hdr;

	hdr = genlmsg_put(msg, portid, seq, &kb_family, flags, cmd);
	if (!hdr)
		return -EMSGSIZE;
	if (state != KIOBENCH_STATE_NEW)
		elapsed = (state == KIOBENCH_STATE_RUNNING ? ktime_get_ns() :
			   job->finish_ns) - job->start_ns;
	if (nla_put_u32(msg, KIOBENCH_A_JOB_ID, job->id) ||
	    nla_put_string(msg, KIOBENCH_A_JOB_NAME, job->cfg.name) ||
	    nla_put_u8(msg, KIOBENCH_A_JOB_STATE, state) ||
	    nla_put_s32(msg, KIOBENCH_A_JOB_ERROR, READ_ONCE(job->error)) ||
	    nla_put_string(msg, KIOBENCH_A_DEBUGFS_DIR, job->dbg_name) ||
	    nla_put_u32(msg, KIOBENCH_A_JOB_NR_WORKERS, job->nr_workers) ||
	    nla_put_u64_64bit(msg, KIOBENCH_A_JOB_ELAPSED_NS, elapsed, KIOBENCH_A_PAD) ||
	    nla_put_u64_64bit(msg, KIOBENCH_A_JOB_MEASURED_NS,
			      kb_job_measured_ns(job), KIOBENCH_A_PAD) ||
	    nla_put_u64_64bit(msg, KIOBENCH_A_JOB_CPU_NS, kb_job_cpu_ns(job),
			      KIOBENCH_A_PAD) ||
	    nla_put_u64_64bit(msg, KIOBENCH_A_JOB_ZERO_READS,
			      kb_job_zero_reads(job), KIOBENCH_A_PAD) ||
	    nla_put_u64_64bit(msg, KIOBENCH_A_JOB_RETRIES,
			      kb_job_retries(job), KIOBENCH_A_PAD) ||
	    nla_put_u32(msg, KIOBENCH_A_JOB_OWNER, job->owner_portid) ||
	    (job->fua_emulated && nla_put_flag(msg, KIOBENCH_A_JOB_FUA_EMULATED)) ||
	    (job->flush_noop && nla_put_flag(msg, KIOBENCH_A_JOB_FLUSH_NOOP)))
		goto out_cancel;
	if ((settings && kb_put_config(msg, job)) ||
	    kb_put_verify(msg, job, settings) || kb_pi_put(msg, job) ||
	    kb_put_errors(msg, job, settings))
		goto out_cancel;
	if (cmd != KIOBENCH_CMD_JOB_NTF) {
		for (dir = 0; dir < KIOBENCH_NR_DIRS; dir++)
			if (kb_put_stats(msg, job, dir))
				goto out_cancel;
	}
	genlmsg_end(msg, hdr);
	return 0;

out_cancel:
	genlmsg_cancel(msg, hdr);
	return -EMSGSIZE;
}

/* Announces a job's state to the "events" group; may sleep. */
static void kb_nl_notify(struct kb_job *job)
{
	struct sk_buff *msg;

	msg = genlmsg_new(kb_status_size(&job->cfg), GFP_KERNEL);
	if (!msg)
		return;
	if (kb_put_job(msg, job, 0, 0, 0, KIOBENCH_CMD_JOB_NTF)) {
		nlmsg_free(msg);
		return;
	}
	genlmsg_multicast(&kb_family, msg, 0, 0, GFP_KERNEL);
}

/* ---- operations ---------------------------------------------------------- */

static int kb_nl_get_features(struct sk_buff *skb, struct genl_info *info)
{
	struct sk_buff *msg;
	void *hdr;
	int err;

	err = kb_check_admin(skb, info->extack);
	if (err)
		return err;
	msg = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	hdr = genlmsg_put_reply(msg, info, &kb_family, 0,
				KIOBENCH_CMD_GET_FEATURES);
	if (!hdr)
		goto out_free_msg;
	if (nla_put_u32(msg, KIOBENCH_A_VERSION, KIOBENCH_GENL_VERSION) ||
	    nla_put_u32(msg, KIOBENCH_A_LIMIT_JOBS, KB_MAX_JOBS) ||
	    nla_put_u32(msg, KIOBENCH_A_LIMIT_DEVICES, KB_MAX_DEVICES) ||
	    nla_put_u32(msg, KIOBENCH_A_LIMIT_WORKERS, KB_MAX_WORKERS) ||
	    nla_put_u32(msg, KIOBENCH_A_LIMIT_IODEPTH, KB_MAX_IODEPTH) ||
	    nla_put_u32(msg, KIOBENCH_A_LIMIT_BS, KB_MAX_BS) ||
	    nla_put_u32(msg, KIOBENCH_A_LIMIT_BSSPLIT, KB_MAX_BSSPLIT) ||
	    nla_put_u32(msg, KIOBENCH_A_LIMIT_LAT_LOG, KB_MAX_LAT_LOG) ||
	    nla_put_u32(msg, KIOBENCH_A_LIMIT_RATE_IOPS, KB_MAX_RATE_IOPS) ||
	    nla_put_u32(msg, KIOBENCH_A_LIMIT_SOCKET_JOBS, kb_max_socket_jobs) ||
	    nla_put_u64_64bit(msg, KIOBENCH_A_LIMIT_DETACHED_NS,
			      (u64)kb_max_detached_runtime * NSEC_PER_SEC,
			      KIOBENCH_A_PAD) ||
	    nla_put_u64_64bit(msg, KIOBENCH_A_LIMIT_JOB_MEM, kb_max_job_mem,
			      KIOBENCH_A_PAD) ||
	    nla_put_u64_64bit(msg, KIOBENCH_A_LIMIT_TOTAL_MEM, kb_max_total_mem,
			      KIOBENCH_A_PAD) ||
	    nla_put_u32(msg, KIOBENCH_A_HIST_BITS, KB_HIST_BITS) ||
	    nla_put_u32(msg, KIOBENCH_A_HIST_BUCKETS, KB_HIST_BUCKETS))
		goto out_free_msg;
	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);

out_free_msg:
	nlmsg_free(msg);
	return -EMSGSIZE;
}

/*
 * Before a job is freed, in its last kb_job_put(): its expiry cannot run
 * any more, and its debugfs files go, waiting for their readers, as they
 * read the job.
 */
static void kb_nl_job_released(struct kb_job *job)
{
	cancel_delayed_work_sync(&job->expire);
	kb_debugfs_del_job(job);
}

/*
 * A detached job that is still NEW max_detached_runtime after its creation
 * is abandoned: nothing bounds its life as runtime bounds a started one's,
 * and it holds its devices, buffers and threads.  It is removed as a
 * released socket's jobs are.  START takes the registry's lock too, so a
 * job is either started or removed, never both.
 */
static void kb_nl_job_expire(struct work_struct *work)
{
	struct kb_job *job = container_of(to_delayed_work(work), struct kb_job,
					  expire);
	bool expired;

	kb_jobs_lock();
	/* NEW leaves only by START, under the registry's lock */
	expired = kb_job_find(job->id) == job &&
		  READ_ONCE(job->state) == KIOBENCH_STATE_NEW;
	if (expired)
		kb_job_unregister(job);
	kb_jobs_unlock();
	/* not here: the last put waits for this work (kb_nl_job_released()) */
	if (expired)
		kb_job_put_async(job);
}

/* Socket-owned jobs: at most max_socket_jobs per socket.  Registry locked. */
static int kb_nl_check_owned(bool detach, struct genl_info *info)
{
	if (detach || kb_jobs_owned(genl_info_net(info), info->snd_portid) <
		      kb_max_socket_jobs)
		return 0;
	KB_ERR_FMT(info->extack, NULL,
		   "jobs: a socket may own at most max_socket_jobs jobs; destroy one",
		   "jobs: a socket may own at most max_socket_jobs %u jobs; destroy one",
		   kb_max_socket_jobs);
	return -EBUSY;
}

/*
 * Makes a job and its debugfs directory, not yet registered, with the
 * caller's reference; @cfg is the job's once kb_job_create() is called,
 * whatever the outcome.  The job belongs to the requesting socket unless
 * @cfg detaches it.  The registry's lock is taken only to reserve the id:
 * opening the devices may load a driver's module, whose init may wait for
 * anything (genl_register_family(), a lock of ours), and zone reports and
 * the workers' threads take time.
 */
static struct kb_job *kb_nl_job_make(struct kb_config *cfg,
				     struct genl_info *info)
{
	struct netlink_ext_ack *extack = info->extack;
	bool detach = cfg->detach;
	struct kb_job *job;
	u32 id;
	int err;

	kb_jobs_lock();
	err = kb_nl_check_owned(detach, info) ?: kb_job_reserve_id(&id, extack);
	kb_jobs_unlock();
	if (err)
		return ERR_PTR(err);
	/* takes cfg's allocations */
	job = kb_job_create(id, cfg, genl_info_net(info), detach ? 0 : info->snd_portid,
			    extack);
	if (IS_ERR(job)) {
		kb_job_release_id(id);
		return job;
	}
	INIT_DELAYED_WORK(&job->expire, kb_nl_job_expire);
	err = kb_debugfs_add_job(job);
	if (err) {
		KB_ERR_FMT(extack, NULL,
			   "debugfs: cannot create the job's directory",
			   "debugfs: cannot create the job's directory %s (%pe)",
			   job->dbg_name, ERR_PTR(err));
		kb_job_put(job);	/* frees it, and its id */
		return ERR_PTR(err);
	}
	return job;
}

/*
 * Lets requests find a whole job.  The socket's count is checked again: two
 * JOB_NEW of one socket may have been made side by side.
 */
static int kb_nl_job_publish(struct kb_job *job, struct genl_info *info)
{
	unsigned long expire = min_t(u64, (u64)kb_max_detached_runtime * HZ,
				     MAX_JIFFY_OFFSET);
	int err;

	kb_jobs_lock();
	err = kb_nl_check_owned(job->cfg.detach, info) ?: kb_job_register(job);
	if (!err && job->cfg.detach)
		schedule_delayed_work(&job->expire, expire);
	kb_jobs_unlock();
	return err;
}

/*
 * The JOB_NEW reply was not delivered: the requester does not know the
 * job, which nothing would ever destroy (a detached one) or which another
 * request of its socket must not meet.  It is removed, unless a request
 * (a JOB_DEL that guessed its id) has removed it already.
 */
static void kb_nl_job_withdraw(struct kb_job *job)
{
	bool registered;

	kb_jobs_lock();
	registered = kb_job_find(job->id) == job;
	if (registered)
		kb_job_unregister(job);
	kb_jobs_unlock();
	if (registered)
		kb_job_put(job);	/* the registry's; the caller holds its own */
}

static int kb_nl_job_new(struct sk_buff *skb, struct genl_info *info)
{
	struct kb_config cfg = {};
	struct sk_buff *msg;
	struct kb_job *job;
	int err;

	err = kb_check_request(skb, info);
	if (err)
		return err;
	err = kb_parse_config(info, &cfg);
	if (!err)
		err = kb_parse_detach(info, &cfg);
	if (err)
		goto out_free_config;
	msg = genlmsg_new(kb_status_size(&cfg), GFP_KERNEL);
	if (!msg) {
		err = -ENOMEM;
		goto out_free_config;
	}
	job = kb_nl_job_make(&cfg, info);
	if (IS_ERR(job)) {
		err = PTR_ERR(job);
		goto out_free_msg;
	}
	/* the reply is the new job's status, before any request can touch it */
	err = kb_put_job(msg, job, info->snd_portid, info->snd_seq, 0,
			 KIOBENCH_CMD_JOB_NEW);
	if (err)
		goto out_put_job;
	err = kb_nl_job_publish(job, info);
	if (err)
		goto out_put_job;
	err = genlmsg_reply(msg, info);	/* consumes msg, even on failure */
	if (err)
		kb_nl_job_withdraw(job);
	kb_job_put(job);
	return err;

out_put_job:
	kb_job_put(job);
out_free_msg:
	nlmsg_free(msg);
out_free_config:
	kb_config_free(&cfg);
	return err;
}

/* Looks up KIOBENCH_A_JOB_ID; called with the registry locked. */
static struct kb_job *kb_lookup(struct genl_info *info)
{
	struct nlattr *a = info->attrs[KIOBENCH_A_JOB_ID];
	struct kb_job *job;

	if (GENL_REQ_ATTR_CHECK(info, KIOBENCH_A_JOB_ID))
		return ERR_PTR(-EINVAL);
	job = kb_job_find(nla_get_u32(a));
	if (!job) {
		KB_ERR_FMT(info->extack, a, "job-id: no such job",
			   "job-id: no job %u", nla_get_u32(a));
		return ERR_PTR(-ENOENT);
	}
	return job;
}

enum kb_job_op { KB_OP_START, KB_OP_STOP, KB_OP_DEL };

/* START, STOP and DEL: look the job up and check its state, then act. */
static int kb_nl_job_op(struct sk_buff *skb, struct genl_info *info,
			enum kb_job_op op)
{
	struct netlink_ext_ack *extack = info->extack;
	struct nlattr *a = info->attrs[KIOBENCH_A_JOB_ID];
	struct kb_job *job, *gone = NULL;
	u8 state;
	int err;

	err = kb_check_request(skb, info);
	if (err)
		return err;
	kb_jobs_lock();
	job = kb_lookup(info);
	if (IS_ERR(job)) {
		err = PTR_ERR(job);
		goto out_unlock;
	}
	state = smp_load_acquire(&job->state);	/* pairs with the workers */
	switch (op) {
	case KB_OP_START:
		err = -EBUSY;
		if (state != KIOBENCH_STATE_NEW) {
			NL_SET_ERR_MSG_ATTR(extack, a,
					    "job-id: the job has been started already; a job runs once");
			break;
		}
		err = kb_job_start(job, extack);
		if (!err)
			kb_nl_notify(job);
		break;
	case KB_OP_STOP:
		err = -EINVAL;
		if (state != KIOBENCH_STATE_RUNNING) {
			NL_SET_ERR_MSG_ATTR(extack, a, "job-id: the job is not running");
			break;
		}
		kb_job_stop(job);
		err = 0;
		break;
	case KB_OP_DEL:
		err = -EBUSY;
		if (state == KIOBENCH_STATE_RUNNING) {
			NL_SET_ERR_MSG_ATTR(extack, a,
					    "job-id: the job is running; stop it first");
			break;
		}
		kb_job_unregister(job);
		gone = job;
		err = 0;
		break;
	}
out_unlock:
	kb_jobs_unlock();
	if (gone)
		kb_job_put(gone);	/* frees it, out of the registry's lock */
	return err;
}

static int kb_nl_job_start(struct sk_buff *skb, struct genl_info *info)
{
	return kb_nl_job_op(skb, info, KB_OP_START);
}

static int kb_nl_job_stop(struct sk_buff *skb, struct genl_info *info)
{
	return kb_nl_job_op(skb, info, KB_OP_STOP);
}

static int kb_nl_job_del(struct sk_buff *skb, struct genl_info *info)
{
	return kb_nl_job_op(skb, info, KB_OP_DEL);
}

/* JOB_REPLAY: entries of a new job's log, appended (replay.c). */
static int kb_nl_job_replay(struct sk_buff *skb, struct genl_info *info)
{
	struct kb_job *job;
	int err;

	err = kb_check_request(skb, info);
	if (err)
		return err;
	if (GENL_REQ_ATTR_CHECK(info, KIOBENCH_A_REPLAY_ENTS))
		return -EINVAL;
	kb_jobs_lock();
	job = kb_lookup(info);
	if (IS_ERR(job)) {
		err = PTR_ERR(job);
	} else if (READ_ONCE(job->state) != KIOBENCH_STATE_NEW) {
		/* NEW leaves only by START, under the registry's lock */
		NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[KIOBENCH_A_JOB_ID],
				    "job-id: the job has been started already; its log is complete");
		err = -EBUSY;
	} else {
		err = kb_replay_append(job, info->attrs[KIOBENCH_A_REPLAY_ENTS],
				       info->extack);
	}
	kb_jobs_unlock();
	return err;
}

static int kb_nl_job_get(struct sk_buff *skb, struct genl_info *info)
{
	struct sk_buff *msg;
	struct kb_job *job;
	int err;

	err = kb_check_request(skb, info);
	if (err)
		return err;
	kb_jobs_lock();
	job = kb_lookup(info);
	if (IS_ERR(job)) {
		kb_jobs_unlock();
		return PTR_ERR(job);
	}
	msg = genlmsg_new(kb_status_size(&job->cfg), GFP_KERNEL);
	err = msg ? kb_put_job(msg, job, info->snd_portid, info->snd_seq, 0,
			       KIOBENCH_CMD_JOB_GET) : -ENOMEM;
	kb_jobs_unlock();
	if (err) {
		nlmsg_free(msg);
		return err;
	}
	return genlmsg_reply(msg, info);
}

/*
 * Before the first part of a dump: room for the largest job's status, or a
 * job with many CPUs or long device paths would fit in no part of it.
 */
static int kb_nl_job_dump_start(struct netlink_callback *cb)
{
	unsigned long id = 0;
	struct kb_job *job;
	size_t size = 0;

	kb_jobs_lock();
	for (; (job = kb_job_next(&id)); id++)
		size = max(size, kb_status_size(&job->cfg));
	kb_jobs_unlock();
	cb->min_dump_alloc = size;
	return 0;
}

/* cb->args[0]: the next job id to dump. */
static int kb_nl_job_dump(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct kb_job *job;
	unsigned long id;
	int err;

	err = kb_check_admin(cb->skb, cb->extack);
	if (err)
		return err;
	/* the dump request takes no attribute; the do policy let job-id by */
	if (nlmsg_attrlen(cb->nlh, GENL_HDRLEN) > 0) {
		NL_SET_ERR_MSG_ATTR(cb->extack,
				    nlmsg_attrdata(cb->nlh, GENL_HDRLEN),
				    "the job dump takes no attribute");
		return -EINVAL;
	}
	kb_jobs_lock();
	for (id = cb->args[0]; (job = kb_job_next(&id)); id++) {
		err = kb_put_job(skb, job, NETLINK_CB(cb->skb).portid,
				 cb->nlh->nlmsg_seq, NLM_F_MULTI,
				 KIOBENCH_CMD_JOB_GET);
		if (err)
			break;
		cb->args[0] = id + 1;
	}
	kb_jobs_unlock();
	if (err == -EMSGSIZE && skb->len)
		return skb->len;	/* the rest goes in the next message */
	return err ?: skb->len;
}

static const struct genl_ops kb_ops[] = {
	{
		.cmd = KIOBENCH_CMD_GET_FEATURES,
		.doit = kb_nl_get_features,
		.flags = GENL_ADMIN_PERM,
	},
	{
		.cmd = KIOBENCH_CMD_JOB_NEW,
		.doit = kb_nl_job_new,
		.policy = kb_new_policy,
		.maxattr = KIOBENCH_A_MAX,
		.flags = GENL_ADMIN_PERM,
	},
	{
		.cmd = KIOBENCH_CMD_JOB_START,
		.doit = kb_nl_job_start,
		.policy = kb_id_policy,
		.maxattr = KIOBENCH_A_MAX,
		.flags = GENL_ADMIN_PERM,
	},
	{
		.cmd = KIOBENCH_CMD_JOB_STOP,
		.doit = kb_nl_job_stop,
		.policy = kb_id_policy,
		.maxattr = KIOBENCH_A_MAX,
		.flags = GENL_ADMIN_PERM,
	},
	{
		.cmd = KIOBENCH_CMD_JOB_GET,
		.doit = kb_nl_job_get,
		.start = kb_nl_job_dump_start,
		.dumpit = kb_nl_job_dump,
		.policy = kb_id_policy,
		.maxattr = KIOBENCH_A_MAX,
		.flags = GENL_ADMIN_PERM,
	},
	{
		.cmd = KIOBENCH_CMD_JOB_DEL,
		.doit = kb_nl_job_del,
		.policy = kb_id_policy,
		.maxattr = KIOBENCH_A_MAX,
		.flags = GENL_ADMIN_PERM,
	},	{
		.cmd = KIOBENCH_CMD_JOB_REPLAY,
		.doit = kb_nl_job_replay,
		.policy = kb_replay_policy,
		.maxattr = KIOBENCH_A_MAX,
		.flags = GENL_ADMIN_PERM,
	},
};

static const struct genl_multicast_group kb_mcgrps[] = {
	{ .name = KIOBENCH_MCGRP_EVENTS, .flags = KB_MCGRP_FLAGS },
};

static struct genl_family kb_family = {
	.name = KIOBENCH_GENL_NAME,
	.version = KIOBENCH_GENL_VERSION,
	.module = THIS_MODULE,
	.ops = kb_ops,
	.n_ops = ARRAY_SIZE(kb_ops),
	.mcgrps = kb_mcgrps,
	.n_mcgrps = ARRAY_SIZE(kb_mcgrps),
	.resv_start_op = 0,	/* strict validation for every command */
	/*
	 * Not under genl_mutex: a request waits for no other family's, and
	 * no other family's for ours.  The handlers lock the registry
	 * themselves, never while making or draining a job.
	 */
	.parallel_ops = true,
};

/* ---- jobs of released sockets ------------------------------------------- */

/*
 * Removes the jobs whose socket is gone and tells them to stop; each
 * drains and is freed in a work item of its own (kb_job_put_async()), so
 * that the reaper waits for no device.
 */
static void kb_nl_reap(struct work_struct *work)
{
	unsigned long id = 0;
	struct kb_job *job;

	kb_jobs_lock();
	for (; (job = kb_job_next_orphan(&id)); id++) {
		kb_job_stop(job);
		kb_job_unregister(job);
		kb_job_put_async(job);
	}
	kb_jobs_unlock();
}

static DECLARE_WORK(kb_reap_work, kb_nl_reap);

/*
 * A netlink socket was released.  The chain is a blocking one, run from the
 * socket's release, but that must not wait for a job's I/O to drain nor
 * take the registry's mutex behind a running request: mark the jobs without
 * sleeping and leave the rest to kb_nl_reap().
 */
static int kb_nl_urelease(struct notifier_block *nb, unsigned long event,
			  void *ptr)
{
	struct netlink_notify *n = ptr;

	if (event != NETLINK_URELEASE || n->protocol != NETLINK_GENERIC ||
	    !n->portid)
		return NOTIFY_DONE;
	if (kb_jobs_mark_orphans(n->net, n->portid))
		queue_work(system_unbound_wq, &kb_reap_work);
	return NOTIFY_OK;
}

static struct notifier_block kb_nl_notifier = {
	.notifier_call = kb_nl_urelease,
};

int kb_nl_init(void)
{
	int err;

	/* no job before the family exists */
	kb_jobs_init(kb_nl_notify, kb_nl_job_released);
	err = genl_register_family(&kb_family);
	if (err)
		return err;
	err = netlink_register_notifier(&kb_nl_notifier);
	if (err)
		goto out_unregister_family;
	return 0;

out_unregister_family:
	genl_unregister_family(&kb_family);
	return err;
}

/*
 * ORDER: the notifier goes first, so that no reaper is queued any more, and
 * the reaper is flushed; then the registry is closed, its jobs are removed
 * and drain side by side, and exit waits until every job is freed (those
 * a request or the reaper was freeing, or a JOB_NEW still making, too),
 * while the family is still registered, so that their workers can announce
 * the end.  A request still running after that finds no job and makes none.
 */
void kb_nl_exit(void)
{
	unsigned long id = 0;
	struct kb_job *job;

	netlink_unregister_notifier(&kb_nl_notifier);
	flush_work(&kb_reap_work);
	kb_jobs_lock();
	kb_jobs_close();
	for (; (job = kb_job_next(&id)); id++) {
		kb_job_unregister(job);
		kb_job_put_async(job);
	}
	kb_jobs_unlock();
	kb_jobs_wait_all();
	genl_unregister_family(&kb_family);
}
