/* SPDX-License-Identifier: GPL-2.0 */
/* pi-chk: kiobench's own protection information (pi.c). */
#ifndef KB_PI_H
#define KB_PI_H

struct kb_config;
struct kb_dev;
struct kb_job;
struct kb_slot;
struct kb_worker;

/* netlink.c, job.c, debugfs.c */
int kb_pi_parse(struct genl_info *info, struct kb_config *cfg);
int kb_pi_check_dev(struct kb_job *job, struct kb_dev *dev, const char *path,
		    struct netlink_ext_ack *extack);
u64 kb_pi_mem(const struct kb_job *job);
int kb_pi_create(struct kb_job *job);
void kb_pi_destroy(struct kb_job *job);
int kb_pi_alloc_worker(struct kb_worker *w);
void kb_pi_free_worker(struct kb_worker *w);
int kb_pi_alloc_slot(struct kb_job *job, struct kb_slot *slot);
void kb_pi_free_slot(struct kb_slot *slot);
u64 kb_pi_errors(struct kb_job *job, unsigned int kind);
bool kb_pi_first_lba(struct kb_job *job, u64 *lba);
int kb_pi_debugfs(struct kb_job *job, struct dentry *dir);

/* worker.c's */
int kb_pi_attach(struct kb_worker *w, struct kb_slot *slot, struct bio *bio);
void kb_pi_detach(struct bio *bio);
void kb_pi_check(struct kb_worker *w, struct kb_slot *slot);

#if IS_ENABLED(CONFIG_KUNIT)
u16 kb_crc_t10dif(u16 crc, const void *p, size_t len);
#endif

#endif /* KB_PI_H */
