#pragma once
// Go's sort.SliceStable, step for step: insertion sort of blocks of 20, then symmerge. Several of
// the core's comparisons are not strict weak orders (ties that compare "less" both ways), and
// their outcome then depends on the algorithm; less(i, j) compares the elements at positions i, j.
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace gantry::engine::yunikorn {

// sort.SliceStable: insertion sort of blocks of 20, then symmerge.
namespace detail {

template <class Less> void insertionSort(std::vector<uint32_t>& v, int a, int b, Less less) {
    for (int i = a + 1; i < b; ++i)
        for (int j = i; j > a && less(j, j - 1); --j) std::swap(v[size_t(j)], v[size_t(j - 1)]);
}

inline void swapRange(std::vector<uint32_t>& v, int a, int b, int n) {
    for (int i = 0; i < n; ++i) std::swap(v[size_t(a + i)], v[size_t(b + i)]);
}

inline void rotate(std::vector<uint32_t>& v, int a, int m, int b) {
    int i = m - a, j = b - m;
    while (i != j) {
        if (i > j) {
            swapRange(v, m - i, m, j);
            i -= j;
        } else {
            swapRange(v, m - i, m + j - i, i);
            j -= i;
        }
    }
    swapRange(v, m - i, m, i);
}

template <class Less> void symMerge(std::vector<uint32_t>& v, int a, int m, int b, Less less) {
    if (m - a == 1) {
        int i = m, j = b;
        while (i < j) {
            int h = int(unsigned(i + j) >> 1);
            if (less(h, a))
                i = h + 1;
            else
                j = h;
        }
        for (int k = a; k < i - 1; ++k) std::swap(v[size_t(k)], v[size_t(k + 1)]);
        return;
    }
    if (b - m == 1) {
        int i = a, j = m;
        while (i < j) {
            int h = int(unsigned(i + j) >> 1);
            if (!less(m, h))
                i = h + 1;
            else
                j = h;
        }
        for (int k = m; k > i; --k) std::swap(v[size_t(k)], v[size_t(k - 1)]);
        return;
    }
    int mid = int(unsigned(a + b) >> 1);
    int n = mid + m;
    int start, r;
    if (m > mid) {
        start = n - b;
        r = mid;
    } else {
        start = a;
        r = m;
    }
    int p = n - 1;
    while (start < r) {
        int c = int(unsigned(start + r) >> 1);
        if (!less(p - c, c))
            start = c + 1;
        else
            r = c;
    }
    int end = n - start;
    if (start < m && m < end) rotate(v, start, m, end);
    if (a < start && start < mid) symMerge(v, a, start, mid, less);
    if (mid < end && end < b) symMerge(v, mid, end, b, less);
}

} // namespace detail

template <class Less> void goStableSort(std::vector<uint32_t>& v, Less less) {
    const int n = int(v.size());
    int blockSize = 20;
    int a = 0, b = blockSize;
    while (b <= n) {
        detail::insertionSort(v, a, b, less);
        a = b;
        b += blockSize;
    }
    detail::insertionSort(v, a, n, less);
    while (blockSize < n) {
        a = 0;
        b = 2 * blockSize;
        while (b <= n) {
            detail::symMerge(v, a, a + blockSize, b, less);
            a = b;
            b += 2 * blockSize;
        }
        if (int m = a + blockSize; m < n) detail::symMerge(v, a, m, n, less);
        blockSize *= 2;
    }
}

} // namespace gantry::engine::yunikorn
