#include <x>
