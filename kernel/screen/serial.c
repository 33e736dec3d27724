/* SPDX-License-Identifier: MIT */
/* A 16550 UART, polled: interrupts stay off for the whole run. */
#include "kernel/screen/serial.h"
#include "kernel/x86/x86.h"

#define UART_DATA	0
#define UART_IER	1
#define UART_FCR	2
#define UART_LCR	3
#define UART_MCR	4
#define UART_LSR	5
#define UART_SCR	7
#define LSR_THRE	0x20
#define LCR_DLAB	0x80
#define LCR_8N1		0x03

/* Long enough for one byte at 1200 baud on any CPU this runs on. */
#define THRE_SPINS	1000000

static uint16_t uart;

bool serial_init(uint16_t port, uint32_t baud)
{
	uint16_t divisor = (uint16_t)(115200 / baud);

	/* No UART at port: the scratch register does not keep what we write. */
	outb(port + UART_SCR, 0x5a);
	if (inb(port + UART_SCR) != 0x5a)
		return false;
	outb(port + UART_SCR, 0xa5);
	if (inb(port + UART_SCR) != 0xa5)
		return false;

	outb(port + UART_IER, 0);
	outb(port + UART_LCR, LCR_DLAB);
	outb(port + UART_DATA, divisor & 0xff);
	outb(port + UART_IER, divisor >> 8);
	outb(port + UART_LCR, LCR_8N1);
	outb(port + UART_FCR, 0x07);	/* enable and clear the FIFOs */
	outb(port + UART_MCR, 0x03);	/* DTR, RTS */
	uart = port;
	return true;
}

static void put(char c)
{
	unsigned int spins = THRE_SPINS;

	/* A UART that never drains must not hang the benchmark. */
	while (!(inb(uart + UART_LSR) & LSR_THRE) && --spins)
		;
	outb(uart + UART_DATA, (uint8_t)c);
}

void serial_write(const char *s, size_t len)
{
	size_t i;

	if (!uart)
		return;
	for (i = 0; i < len; i++) {
		if (s[i] == '\n')
			put('\r');
		put(s[i]);
	}
}
