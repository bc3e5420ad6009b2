// SPDX-License-Identifier: GPL-2.0
/*
 * cx16probe: does this CPU's CMPXCHG16B leave RFLAGS as the architecture
 * says?  It changes ZF and nothing else.
 *
 * QEMU 7.2's TCG computes the flags CMPXCHG16B starts from with the
 * condition-code operation it last stored, not the current one: after a
 * block-ending POPF the stored one is "EFLAGS", and an ADD has since put
 * its source operand where that reads them, so RFLAGS takes that
 * operand's low half.  This is SLUB's fast path (add, then
 * this_cpu_cmpxchg16b), and the guest kernel took a double fault in
 * kmalloc with RFLAGS 0x06e6c242 beside an object at ...06e6c000.  The
 * same sequence is run here in user mode, with the same operand.
 *
 * Prints the feature's absence or RFLAGS, and exits 0 if the CPU has no
 * CMPXCHG16B or its flags are right, 1 if they are wrong.
 */
#include <cpuid.h>
#include <stdint.h>
#include <stdio.h>

static unsigned __int128 mem __attribute__((aligned(16)));

int main(void)
{
	/* CF PF AF ZF SF TF IF DF OF IOPL NT RF VM AC VIF VIP ID, bit 1 */
	const uint64_t defined = 0x3f7fd7;
	/* the ADD's SF and PF for its sum, ZF from the exchange, IF, bit 1 */
	const uint64_t want = 0x80 | 0x04 | 0x40 | 0x200 | 0x2;
	uint64_t x = 0xffff8a0706e6c000ull, rax = 0, rdx = 0, flags;
	unsigned int a, b, c, d;

	if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & bit_CMPXCHG16B)) {
		printf("cmpxchg16b absent\n");
		return 0;
	}
	mem = x;	/* rdx:rax after the ADD: equal, so the exchange succeeds */
	asm volatile("pushq $0x202\n\t"
		     "popfq\n\t"
		     "add %%rdi, %%rax\n\t"
		     "cmpxchg16b %[m]\n\t"
		     "pushfq\n\t"
		     "popq %[f]\n\t"
		     : [f] "=r" (flags), [m] "+m" (mem), "+a" (rax), "+d" (rdx)
		     : "D" (x), "b" (1ull), "c" (0ull)
		     : "cc", "memory");
	if (flags != want) {
		printf("rflags %#llx: wrong (undefined bits %#llx), expected %#llx\n",
		       (unsigned long long)flags,
		       (unsigned long long)(flags & ~defined),
		       (unsigned long long)want);
		return 1;
	}
	printf("rflags %#llx\n", (unsigned long long)flags);
	return 0;
}
