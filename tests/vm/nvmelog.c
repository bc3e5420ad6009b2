// SPDX-License-Identifier: GPL-2.0
/*
 * nvmelog CTRL LID LSI LEN: an NVMe Get Log Page (admin 02h, NSID 0) of LEN
 * bytes of log LID, Log Specific Identifier LSI, through the kernel's admin
 * path (NVME_IOCTL_ADMIN_CMD on the controller's character device), as hex
 * bytes on one line.  The guest tests read logs with it where the guests
 * have no nvme-cli (test_write_streams.py: the FDP statistics, LID 0x22),
 * apart from what kiobench reads.
 */
#include <fcntl.h>
#include <linux/nvme_ioctl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct nvme_admin_cmd cmd;
	unsigned long lid, lsi, len, i;
	uint8_t *buf;
	int fd, ret;

	if (argc != 5) {
		fprintf(stderr, "usage: nvmelog CTRL LID LSI LEN\n");
		return 2;
	}
	lid = strtoul(argv[2], NULL, 0);
	lsi = strtoul(argv[3], NULL, 0);
	len = strtoul(argv[4], NULL, 0);
	if (!len || len % 4 || len > 65536 || lid > 0xff || lsi > 0xffff) {
		fprintf(stderr, "nvmelog: LID 0..255, LSI 0..65535, LEN a multiple of 4 up to 64 KiB\n");
		return 2;
	}
	buf = calloc(1, len);
	fd = open(argv[1], O_RDONLY);
	if (!buf || fd < 0) {
		perror(argv[1]);
		return 1;
	}
	memset(&cmd, 0, sizeof(cmd));
	cmd.opcode = 0x02;
	cmd.addr = (uintptr_t)buf;
	cmd.data_len = len;
	cmd.cdw10 = lid | (len / 4 - 1) << 16;
	cmd.cdw11 = lsi << 16;
	ret = ioctl(fd, NVME_IOCTL_ADMIN_CMD, &cmd);
	if (ret) {
		if (ret < 0)
			perror("NVME_IOCTL_ADMIN_CMD");
		else
			fprintf(stderr, "nvmelog: NVMe status 0x%x\n", ret);
		return 1;
	}
	for (i = 0; i < len; i++)
		printf("%02x%c", buf[i], i + 1 < len ? ' ' : '\n');
	return 0;
}
