/*
 * cpuid_seen: prints the CPU a program sees (vendor, brand, signature and the feature words that
 * glibc's string functions are chosen by), natively or under valgrind, for
 * selfbench/counts-cpu.sh: whether counted instructions can depend on the host's CPU.
 */
#include <cpuid.h>
#include <stdio.h>
#include <string.h>
int main(void)
{
	unsigned a, b, c, d;
	char vendor[13] = {0}, brand[49] = {0};
	__cpuid(0, a, b, c, d);
	memcpy(vendor, &b, 4); memcpy(vendor + 4, &d, 4); memcpy(vendor + 8, &c, 4);
	for (unsigned i = 0; i < 3; i++) {
		unsigned r[4];
		__cpuid(0x80000002 + i, r[0], r[1], r[2], r[3]);
		memcpy(brand + 16 * i, r, 16);
	}
	__cpuid(1, a, b, c, d);
	unsigned ecx1 = c, edx1 = d, fam = a;
	__cpuid_count(7, 0, a, b, c, d);
	printf("vendor=%s brand=%s sig=%08x leaf1.ecx=%08x leaf1.edx=%08x leaf7.ebx=%08x leaf7.ecx=%08x leaf7.edx=%08x\n",
	       vendor, brand, fam, ecx1, edx1, b, c, d);
	return 0;
}
