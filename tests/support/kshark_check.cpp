// SPDX-License-Identifier: GPL-3.0-or-later
// Opens a trace.dat with KernelShark's own loader (libkshark, what `kernelshark FILE` calls) and prints
// the number of entries it loaded. dlopen'ed, so that the build does not need KernelShark's headers.
// Exit 0: loaded ("entries N"); 2: libkshark is not installed; 1: KernelShark could not open the file.
#include <cstdio>
#include <dlfcn.h>
#include <sys/types.h>

int main(int argc, char **argv)
{
    if (argc != 2) {
        std::fprintf(stderr, "usage: kshark_check FILE.dat\n");
        return 1;
    }
    void *lib = dlopen("libkshark.so.2", RTLD_NOW);
    if (!lib) return 2;
    using Instance = bool (*)(void **);
    using Open = int (*)(void *, const char *);
    using Load = ssize_t (*)(void *, int, void ***);
    auto instance = reinterpret_cast<Instance>(dlsym(lib, "kshark_instance"));
    auto open = reinterpret_cast<Open>(dlsym(lib, "kshark_open"));
    auto load = reinterpret_cast<Load>(dlsym(lib, "kshark_load_entries"));
    if (!instance || !open || !load) return 2;
    void *ctx = nullptr;
    if (!instance(&ctx)) return 1;
    const int sd = open(ctx, argv[1]);
    if (sd < 0) {
        std::fprintf(stderr, "kernelshark cannot open %s\n", argv[1]);
        return 1;
    }
    void **rows = nullptr;
    const ssize_t n = load(ctx, sd, &rows);
    std::printf("entries %zd\n", n);
    return n < 0 ? 1 : 0;
}
