# SPDX-License-Identifier: GPL-2.0
"""What a group list must take in memory, computed from the code's own
constants: make bench sets it against what the kmem tracepoints measured.

SLUB in 6.1 (include/linux/slab.h): kmalloc size classes from
KMALLOC_MIN_SIZE, powers of two plus 96 and 192, up to KMALLOC_MAX_CACHE_SIZE
= 2 * PAGE_SIZE (KMALLOC_SHIFT_HIGH = PAGE_SHIFT + 1); above that
kmalloc_large() takes pages of order get_order(size).  KMALLOC_MIN_SIZE
(targets.conf's kmalloc-min) is 8 (KMALLOC_SHIFT_LOW 3) unless the
architecture sets ARCH_DMA_MINALIGN above 8: arm64 sets 128 in 6.1
(arch/arm64/include/asm/cache.h), so its smallest class is 128 and it has no
kmalloc-96 or -192 (setup_kmalloc_cache_index_table()).  An object of a
cache of its own (kmem_cache_create() with no alignment asked for) takes its
size rounded up to a word.

struct group_info: atomic_t usage, int ngroups, then the gids (kgid_t, 4
bytes) of an inline list or, in the patched kernel's paged lists, the
pointers (8 bytes on the 64-bit kernels the harness builds) to the pages.
"""

GROUP_INFO_SIZE, KGID_SIZE, POINTER_SIZE = 8, 4, 8
NGROUPS_MAX = 65536


def inline_max(page):
    """GROUPS_INLINE_MAX of the patched include/linux/cred.h"""
    return (page - GROUP_INFO_SIZE) // KGID_SIZE


def get_order(size, page):
    order = 0
    while page << order < size:
        order += 1
    return order


def kmalloc_bytes(size, page, kmin):
    """What kmalloc(size) hands out (the kmalloc event's bytes_alloc) on SLUB"""
    if size > 2 * page:                         # > KMALLOC_MAX_CACHE_SIZE
        return page << get_order(size, page)
    if size <= kmin:
        return kmin
    if kmin <= 32 and 64 < size <= 96:
        return 96
    if kmin <= 64 and 128 < size <= 192:
        return 192
    return 1 << (size - 1).bit_length()


def paged_header(page):
    """The group_info cache's object: the header and struct groups_table (a u64
    check, then GROUPS_MAX_BLOCKS page addresses and as many first gids)"""
    blocks = -(-NGROUPS_MAX // (page // KGID_SIZE))     # GROUPS_MAX_BLOCKS
    size = GROUP_INFO_SIZE + 8 + blocks * (POINTER_SIZE + KGID_SIZE)
    return -(-size // 8) * 8


def layout(kernel, n, page, kmin):
    """(header bytes, pages) of a set of n gids: the slab object and the pages"""
    # kernel/groups.c before the storage patch: kvmalloc(struct_size(gi, gid, n)),
    # which is kmalloc() whenever that succeeds; the patched one for an inline list
    if kernel != "patched":
        return kmalloc_bytes(GROUP_INFO_SIZE + KGID_SIZE * n, page, kmin), 0
    # the patched one: an inline list of one gid has room for two
    if n <= inline_max(page):
        return kmalloc_bytes(GROUP_INFO_SIZE + KGID_SIZE * max(n, 2 if n else 0), page,
                             kmin), 0
    # the patched groups_alloc(): an object of its own cache, and a page a block
    return paged_header(page), -(-n // (page // KGID_SIZE))


def mem_computed(kernel, n, page, kmin):
    header, pages = layout(kernel, n, page, kmin)
    return header + pages * page
