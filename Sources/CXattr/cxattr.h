// Extended attributes (glibc's <sys/xattr.h>, which Swift's Glibc module leaves out): a cache file's
// record is kept on the file itself (RiffleStorage's CacheFolder).
#include <sys/xattr.h>
