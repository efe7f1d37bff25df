#include <zlib.h>
#include <vector>
#include <chrono>
#include <cstdio>
int main(){ std::vector<double> v(1<<27, 1.2345); auto t0=std::chrono::steady_clock::now(); uLong c=crc32(0,Z_NULL,0); c=crc32_z(c,(const Bytef*)v.data(), v.size()*8); double s=std::chrono::duration<double>(std::chrono::steady_clock::now()-t0).count(); printf("%lx %.2f GB/s\n", c, v.size()*8/s/1e9);}
