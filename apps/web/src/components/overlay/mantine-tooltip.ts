// Mantine's tooltip alone, so that the chunk loaded with the first tooltip holds only it
// and floating-ui (Tip.tsx).
export { Tooltip } from '@mantine/core';
