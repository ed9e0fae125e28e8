#include <zlib.h>

// deflateInit2 is a macro (it passes the library's version and stream size): Swift cannot call
// it. A gzip wrapper (RFC 1952) is asked for with windowBits 15 + 16.
static inline int czlib_deflate_init_gzip(z_stream *stream, int level) {
    return deflateInit2(stream, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
}

// inflateInit2 likewise; 15 + 16 accepts only a gzip wrapper (tests read answers back).
static inline int czlib_inflate_init_gzip(z_stream *stream) {
    return inflateInit2(stream, 15 + 16);
}
