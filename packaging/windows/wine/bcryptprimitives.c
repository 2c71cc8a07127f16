/* For the Wine checks only (never shipped): Go's Windows runtime takes its
 * random numbers from bcryptprimitives.dll's ProcessPrng, which Windows 10
 * and later have and Debian's Wine 8.0 lacks. This DLL answers it with
 * BCryptGenRandom, which Wine has. scripts/test-windows.sh builds it with
 * MinGW and puts it in the test prefix's system32. */
#include <windows.h>
#include <bcrypt.h>

__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T size)
{
	while (size > 0) {
		ULONG n = size > 0x10000000 ? 0x10000000 : (ULONG)size;
		if (BCryptGenRandom(NULL, data, n, BCRYPT_USE_SYSTEM_PREFERRED_RNG) != 0)
			return FALSE;
		data += n;
		size -= n;
	}
	return TRUE;
}
