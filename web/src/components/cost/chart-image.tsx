import { Box, type SxProps, type Theme } from '@mui/material';
import { visuallyHidden } from '@mui/utils';
import { useId, type Ref } from 'react';

export interface ChartImageProps {
  /** The element the chart library draws into. */
  ref: Ref<HTMLDivElement>;
  ariaLabel: string;
  /** What the drawing shows and where its figures are (the chart's text alternative). */
  description: string;
  sx: SxProps<Theme>;
}

/** A chart's drawing area: an image named `ariaLabel`, described by a visually hidden text. */
export function ChartImage({ ref, ariaLabel, description, sx }: ChartImageProps) {
  const descriptionId = useId();
  return (
    <>
      <Box ref={ref} role="img" aria-label={ariaLabel} aria-describedby={descriptionId} sx={sx} />
      <Box component="span" id={descriptionId} sx={visuallyHidden}>
        {description}
      </Box>
    </>
  );
}
