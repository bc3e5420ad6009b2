// SPDX-License-Identifier: GPL-2.0
/*
 * Where each I/O ran: the module's counters (debugfs job<ID>/locality,
 * kmod/locality.h) parsed, their pairs sorted by the caches the CPUs
 * share, and the devices' interrupts over the job from /proc/interrupts.
 */
#include <dirent.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "locality.h"
#include "values.h"

const char *const kb_loc_ctx_names[KB_LOC_NR_CTX] = { "hardirq", "softirq", "task" };
const char *const kb_loc_where_names[KB_LOC_NR_WHERE] = { "local", "llc", "remote" };

static void *grow(void *p, unsigned int nr, size_t size)
{
	return (nr & (nr - 1)) ? p : realloc(p, (nr ? 2 * nr : 1) * size);
}

/* One line of the file; false: not one of its forms. */
static bool parse_line(const char *l, struct kb_locality *loc)
{
	struct kb_loc_cpu c = { 0 };
	struct kb_loc_pair p;
	struct kb_loc_queue q;
	void *a;

	if (sscanf(l, "cpu %u submitted %" SCNu64 " completed %" SCNu64 " local %" SCNu64
		   " hardirq %" SCNu64 " softirq %" SCNu64 " task %" SCNu64, &c.cpu, &c.submitted,
		   &c.completed, &c.local, &c.ctx[0], &c.ctx[1], &c.ctx[2]) == 7) {
		a = grow(loc->cpus, loc->nr_cpus, sizeof(c));
		if (!a)
			return false;
		loc->cpus = a;
		loc->cpus[loc->nr_cpus++] = c;
		for (int k = 0; k < KB_LOC_NR_CTX; k++)
			loc->ctx[k] += c.ctx[k];
		loc->total += c.completed;
		return true;
	}
	if (sscanf(l, "pair %u %u %" SCNu64, &p.s, &p.c, &p.n) == 3) {
		a = grow(loc->pairs, loc->nr_pairs, sizeof(p));
		if (!a)
			return false;
		loc->pairs = a;
		loc->pairs[loc->nr_pairs++] = p;
		return true;
	}
	q.q = -1;
	if (sscanf(l, "hq %d %" SCNu64, &q.q, &q.n) == 2 ||
	    sscanf(l, "hq none %" SCNu64, &q.n) == 1) {
		a = grow(loc->queues, loc->nr_queues, sizeof(q));
		if (!a)
			return false;
		loc->queues = a;
		loc->queues[loc->nr_queues++] = q;
		return true;
	}
	return false;
}

int kb_loc_parse(const char *text, struct kb_locality *loc, char *err, size_t errlen)
{
	char *copy = strdup(text), *line, *save = NULL;
	int ret = 0;

	memset(loc, 0, sizeof(*loc));
	if (!copy || strncmp(text, "# kiobench-locality 1\n", 22)) {
		snprintf(err, errlen, "not a kiobench-locality 1 file");
		free(copy);
		return -1;
	}
	for (line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (line[0] == '#' || parse_line(line, loc))
			continue;
		snprintf(err, errlen, "bad line '%.60s'", line);
		ret = -1;
		break;
	}
	free(copy);
	if (ret)
		kb_loc_free(loc);
	else
		loc->present = true;
	return ret;
}

/* The CPUs sharing cpu's highest cache level, as sysfs lists them; NULL: unknown. */
static char *llc_list(const char *sysroot, unsigned int cpu)
{
	char path[PATH_MAX], *best = NULL, *t;
	int k, best_level = -1;

	for (k = 0; k < 16; k++) {
		snprintf(path, sizeof(path), "%s/devices/system/cpu/cpu%u/cache/index%d/level",
			 sysroot, cpu, k);
		t = kb_read_file(path);
		if (!t)
			continue;
		if (atoi(t) > best_level) {
			snprintf(path, sizeof(path),
				 "%s/devices/system/cpu/cpu%u/cache/index%d/shared_cpu_list",
				 sysroot, cpu, k);
			free(best);
			best = kb_read_file(path);
			best_level = best ? atoi(t) : -1;
		}
		free(t);
	}
	return best;
}

/* Whether cpu is in a list such as "0-3,8". */
static bool in_list(const char *list, unsigned int cpu)
{
	const char *p = list;

	while (*p) {
		char *end;
		unsigned long lo = strtoul(p, &end, 10), hi = lo;

		if (end == p)
			return false;
		if (*end == '-')
			hi = strtoul(end + 1, &end, 10);
		if (cpu >= lo && cpu <= hi)
			return true;
		p = end + strspn(end, ",\n ");
	}
	return false;
}

void kb_loc_classify(const char *sysroot, struct kb_locality *loc)
{
	unsigned int i;

	memset(loc->where, 0, sizeof(loc->where));
	loc->llc_known = true;
	for (i = 0; i < loc->nr_pairs; i++) {
		const struct kb_loc_pair *p = &loc->pairs[i];
		char *list;

		if (p->s == p->c) {
			loc->where[KB_LOC_LOCAL] += p->n;
			continue;
		}
		list = llc_list(sysroot, p->s);
		if (!list)
			loc->llc_known = false;
		loc->where[list && in_list(list, p->c) ? KB_LOC_LLC : KB_LOC_REMOTE] += p->n;
		free(list);
	}
}

/* Adds irq to the list unless there. */
static void add_irq(unsigned int **irqs, unsigned int *n, unsigned int irq)
{
	unsigned int i;
	void *a;

	for (i = 0; i < *n; i++)
		if ((*irqs)[i] == irq)
			return;
	a = grow(*irqs, *n, sizeof(**irqs));
	if (!a)
		return;
	*irqs = a;
	(*irqs)[(*n)++] = irq;
}

/* The IRQs of the nearest device at or above dir that has any. */
static void device_irqs(const char *sysroot, char *dir, unsigned int **irqs, unsigned int *n)
{
	char path[PATH_MAX + 16], *t, *slash;
	size_t root = strlen(sysroot) + strlen("/devices");

	while (strlen(dir) > root) {
		DIR *d;
		struct dirent *e;

		snprintf(path, sizeof(path), "%s/msi_irqs", dir);
		d = opendir(path);
		if (d) {
			while ((e = readdir(d)))
				if (e->d_name[0] >= '0' && e->d_name[0] <= '9')
					add_irq(irqs, n, (unsigned int)atoi(e->d_name));
			closedir(d);
			if (*n)
				return;
		}
		snprintf(path, sizeof(path), "%s/irq", dir);
		t = kb_read_file(path);
		if (t && atoi(t) > 0) {
			add_irq(irqs, n, (unsigned int)atoi(t));
			free(t);
			return;
		}
		free(t);
		slash = strrchr(dir, '/');
		if (!slash)
			return;
		*slash = '\0';
	}
}

/* The IRQs of block device dev (a partition: its disk's). */
void kb_dev_irqs(const char *sysroot, const char *dev, unsigned int **irqs, unsigned int *n)
{
	char base[PATH_MAX], path[PATH_MAX + 32], real[PATH_MAX];
	struct stat sb;

	if (stat(dev, &sb) || !S_ISBLK(sb.st_mode))
		return;
	snprintf(base, sizeof(base), "%s/dev/block/%u:%u", sysroot, major(sb.st_rdev),
		 minor(sb.st_rdev));
	snprintf(path, sizeof(path), "%s/partition", base);
	snprintf(path, sizeof(path), "%s/%sdevice", base, access(path, F_OK) ? "" : "../");
	if (!realpath(path, real))
		return;
	device_irqs(sysroot, real, irqs, n);
}

/* The header's columns: "CPU0 CPU1 ..." */
static int parse_header(const char *line, struct kb_irqs *out)
{
	const char *p = line;
	unsigned int cpu;
	int used;

	while (sscanf(p, " CPU%u%n", &cpu, &used) == 1) {
		void *a = grow(out->cpu, out->ncpu, sizeof(*out->cpu));

		if (!a)
			return -1;
		out->cpu = a;
		out->cpu[out->ncpu++] = cpu;
		p += used;
	}
	return out->ncpu ? 0 : -1;
}

/* A line "  25:  1 2 3 4  PCI-MSIX-... 1-edge nvme0q1" of one of irqs[0..n). */
static void parse_irq_line(char *line, const unsigned int *irqs, unsigned int n,
			   struct kb_irqs *out)
{
	struct kb_irq l = { 0 };
	unsigned int i, irq;
	char *p, *end, *name;
	void *a;

	if (sscanf(line, " %u:", &irq) != 1)
		return;
	for (i = 0; i < n && irqs[i] != irq; i++)
		;
	if (i == n)
		return;
	l.irq = irq;
	l.cnt = calloc(out->ncpu, sizeof(*l.cnt));
	a = grow(out->l, out->nr, sizeof(l));
	if (!l.cnt || !a) {
		free(l.cnt);
		return;
	}
	out->l = a;
	p = strchr(line, ':') + 1;
	for (i = 0; i < out->ncpu; i++, p = end) {
		l.cnt[i] = strtoull(p, &end, 10);
		l.total += l.cnt[i];
	}
	p[strcspn(p, "\n")] = '\0';
	while (p[0] && p[strlen(p) - 1] == ' ')
		p[strlen(p) - 1] = '\0';
	name = strrchr(p, ' ');
	snprintf(l.name, sizeof(l.name), "%s", name ? name + 1 : p);
	out->l[out->nr++] = l;
}

int kb_irqs_parse(char *text, const unsigned int *irqs, unsigned int nr, struct kb_irqs *out)
{
	char *line, *save = NULL;

	memset(out, 0, sizeof(*out));
	line = strtok_r(text, "\n", &save);
	if (line && !parse_header(line, out))
		while ((line = strtok_r(NULL, "\n", &save)))
			parse_irq_line(line, irqs, nr, out);
	return out->nr ? 0 : -1;
}

int kb_irqs_read(const char *sysroot, const char *procfile, char *const *devs, unsigned int n,
		 struct kb_irqs *out)
{
	unsigned int *irqs = NULL, nr = 0, i;
	char *text;
	int ret = -1;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < n; i++)
		kb_dev_irqs(sysroot, devs[i], &irqs, &nr);
	text = nr ? kb_read_file(procfile) : NULL;
	if (text)
		ret = kb_irqs_parse(text, irqs, nr, out);
	free(text);
	free(irqs);
	return ret;
}

void kb_irqs_delta(struct kb_irqs *after, const struct kb_irqs *before)
{
	unsigned int i, k, kept = 0;

	for (i = 0; i < after->nr; i++) {
		struct kb_irq *a = &after->l[i];
		const struct kb_irq *b = NULL;

		for (k = 0; k < before->nr && !b; k++)
			if (before->l[k].irq == a->irq)
				b = &before->l[k];
		a->total = 0;
		for (k = 0; k < after->ncpu; k++) {
			uint64_t was = b && k < before->ncpu ? b->cnt[k] : 0;

			a->cnt[k] = a->cnt[k] >= was ? a->cnt[k] - was : 0;
			a->total += a->cnt[k];
		}
		if (a->total)
			after->l[kept++] = *a;
		else
			free(a->cnt);
	}
	after->nr = kept;
}

void kb_irqs_free(struct kb_irqs *irqs)
{
	unsigned int i;

	for (i = 0; i < irqs->nr; i++)
		free(irqs->l[i].cnt);
	free(irqs->l);
	free(irqs->cpu);
	memset(irqs, 0, sizeof(*irqs));
}

void kb_loc_free(struct kb_locality *loc)
{
	free(loc->cpus);
	free(loc->pairs);
	free(loc->queues);
	kb_irqs_free(&loc->irqs);
	memset(loc, 0, sizeof(*loc));
}

static int cmp_cpu(const void *a, const void *b)
{
	const struct kb_loc_cpu *x = a, *y = b;

	return (x->cpu > y->cpu) - (x->cpu < y->cpu);
}

static int cmp_pair(const void *a, const void *b)
{
	const struct kb_loc_pair *x = a, *y = b;

	if (x->s != y->s)
		return (x->s > y->s) - (x->s < y->s);
	return (x->c > y->c) - (x->c < y->c);
}

/* The queues in order, "none" (-1) last, as the module lists them. */
static int cmp_queue(const void *a, const void *b)
{
	unsigned int x = (unsigned int)((const struct kb_loc_queue *)a)->q;
	unsigned int y = (unsigned int)((const struct kb_loc_queue *)b)->q;

	return (x > y) - (x < y);
}

static int add_cpus(struct kb_locality *a, const struct kb_locality *x)
{
	unsigned int i, k;

	for (i = 0; i < x->nr_cpus; i++) {
		const struct kb_loc_cpu *c = &x->cpus[i];
		struct kb_loc_cpu *d = NULL;

		for (k = 0; k < a->nr_cpus && !d; k++)
			if (a->cpus[k].cpu == c->cpu)
				d = &a->cpus[k];
		if (!d) {
			void *p = grow(a->cpus, a->nr_cpus, sizeof(*c));

			if (!p)
				return -1;
			a->cpus = p;
			d = &a->cpus[a->nr_cpus++];
			*d = (struct kb_loc_cpu){ .cpu = c->cpu };
		}
		d->submitted += c->submitted;
		d->completed += c->completed;
		d->local += c->local;
		for (k = 0; k < KB_LOC_NR_CTX; k++)
			d->ctx[k] += c->ctx[k];
	}
	if (a->nr_cpus)
		qsort(a->cpus, a->nr_cpus, sizeof(*a->cpus), cmp_cpu);
	return 0;
}

static int add_pairs(struct kb_locality *a, const struct kb_locality *x)
{
	unsigned int i, k;

	for (i = 0; i < x->nr_pairs; i++) {
		const struct kb_loc_pair *p = &x->pairs[i];
		struct kb_loc_pair *d = NULL;

		for (k = 0; k < a->nr_pairs && !d; k++)
			if (a->pairs[k].s == p->s && a->pairs[k].c == p->c)
				d = &a->pairs[k];
		if (!d) {
			void *q = grow(a->pairs, a->nr_pairs, sizeof(*p));

			if (!q)
				return -1;
			a->pairs = q;
			d = &a->pairs[a->nr_pairs++];
			*d = (struct kb_loc_pair){ .s = p->s, .c = p->c };
		}
		d->n += p->n;
	}
	if (a->nr_pairs)
		qsort(a->pairs, a->nr_pairs, sizeof(*a->pairs), cmp_pair);
	return 0;
}

static int add_queues(struct kb_locality *a, const struct kb_locality *x)
{
	unsigned int i, k;

	for (i = 0; i < x->nr_queues; i++) {
		const struct kb_loc_queue *q = &x->queues[i];
		struct kb_loc_queue *d = NULL;

		for (k = 0; k < a->nr_queues && !d; k++)
			if (a->queues[k].q == q->q)
				d = &a->queues[k];
		if (!d) {
			void *p = grow(a->queues, a->nr_queues, sizeof(*q));

			if (!p)
				return -1;
			a->queues = p;
			d = &a->queues[a->nr_queues++];
			*d = (struct kb_loc_queue){ .q = q->q };
		}
		d->n += q->n;
	}
	if (a->nr_queues)
		qsort(a->queues, a->nr_queues, sizeof(*a->queues), cmp_queue);
	return 0;
}

/*
 * The group's interrupts: each vector of any job's devices once.  The jobs
 * of a group run side by side, so their windows over a vector they share
 * overlap: its count is the job's that saw the most, not a sum.
 */
static int add_irqs(struct kb_irqs *a, const struct kb_irqs *x)
{
	unsigned int i, k;

	if (!x->nr)
		return 0;
	if (!a->nr) {
		free(a->cpu);
		a->cpu = malloc((x->ncpu ? x->ncpu : 1) * sizeof(*a->cpu));
		if (!a->cpu)
			return -1;
		memcpy(a->cpu, x->cpu, x->ncpu * sizeof(*a->cpu));
		a->ncpu = x->ncpu;
	} else if (a->ncpu != x->ncpu) {
		return 0;	/* another machine's columns: not comparable */
	}
	for (i = 0; i < x->nr; i++) {
		const struct kb_irq *q = &x->l[i];
		struct kb_irq *d = NULL;
		uint64_t *cnt;

		for (k = 0; k < a->nr && !d; k++)
			if (a->l[k].irq == q->irq)
				d = &a->l[k];
		if (d && d->total >= q->total)
			continue;
		cnt = malloc((a->ncpu ? a->ncpu : 1) * sizeof(*cnt));
		if (!cnt)
			return -1;
		memcpy(cnt, q->cnt, a->ncpu * sizeof(*cnt));
		if (!d) {
			void *p = grow(a->l, a->nr, sizeof(*q));

			if (!p) {
				free(cnt);
				return -1;
			}
			a->l = p;
			d = &a->l[a->nr++];
		} else {
			free(d->cnt);
		}
		*d = *q;
		d->cnt = cnt;
	}
	return 0;
}

int kb_loc_add(struct kb_locality *a, const struct kb_locality *x)
{
	int k;

	if (!a->present || !x->present) {	/* a part of the group's I/Os only */
		kb_loc_free(a);
		return 0;
	}
	if (add_cpus(a, x) || add_pairs(a, x) || add_queues(a, x) || add_irqs(&a->irqs, &x->irqs)) {
		kb_loc_free(a);
		return -1;
	}
	a->total += x->total;
	for (k = 0; k < KB_LOC_NR_CTX; k++)
		a->ctx[k] += x->ctx[k];
	/* each pair's class is its own: the sums' shares are the summed pairs' */
	for (k = 0; k < KB_LOC_NR_WHERE; k++)
		a->where[k] += x->where[k];
	a->llc_known = a->llc_known && x->llc_known;
	a->has_irqs = a->has_irqs || x->has_irqs;
	return 0;
}
