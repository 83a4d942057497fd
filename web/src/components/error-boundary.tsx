import RefreshIcon from '@mui/icons-material/Refresh';
import ReportProblemOutlinedIcon from '@mui/icons-material/ReportProblemOutlined';
import { Box, Button, Card, CardContent, Stack, Typography } from '@mui/material';
import { Component, type ErrorInfo, type ReactNode } from 'react';
import { mailto } from '@/lib/mailto';

export interface ErrorFallbackCardProps {
  /** Names the broken part: "The {component} encountered an unexpected error." */
  component: string;
  onReset: () => void;
  onReload?: () => void;
  /** When set, a "Report Issue" button opens a mail to this address. */
  supportEmail?: string;
  error?: Error | null;
}

export function ErrorFallbackCard({ component, onReset, onReload, supportEmail, error }: ErrorFallbackCardProps) {
  const reload = onReload ?? (() => window.location.reload());
  return (
    <Card role="alert" variant="outlined" sx={{ maxWidth: 560, mx: 'auto', my: 4, borderColor: 'error.light' }}>
      <CardContent>
        <Stack spacing={2} alignItems="flex-start">
          <Stack direction="row" spacing={1.5} alignItems="center">
            <ReportProblemOutlinedIcon color="error" />
            <Typography variant="h6" component="h2">
              Something went wrong
            </Typography>
          </Stack>
          <Typography color="text.secondary">The {component} encountered an unexpected error.</Typography>
          {error?.message ? (
            <Box
              component="pre"
              sx={{ m: 0, p: 1.5, width: '100%', bgcolor: 'grey.100', borderRadius: 1, fontSize: 12, whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}
            >
              {error.message}
            </Box>
          ) : null}
          <Stack direction="row" spacing={1} flexWrap="wrap" useFlexGap>
            <Button variant="contained" onClick={onReset}>
              Try Again
            </Button>
            <Button variant="outlined" startIcon={<RefreshIcon />} onClick={reload}>
              Reload Page
            </Button>
            {supportEmail ? (
              <Button
                variant="text"
                href={mailto(supportEmail, `Costscope: the ${component} encountered an error`)}
              >
                Report Issue
              </Button>
            ) : null}
          </Stack>
        </Stack>
      </CardContent>
    </Card>
  );
}

export interface ErrorBoundaryProps {
  component: string;
  supportEmail?: string;
  children: ReactNode;
  /** Changing this value resets the boundary (e.g. the current path). */
  resetKey?: unknown;
  onReset?: () => void;
}

interface ErrorBoundaryState {
  error: Error | null;
  resetKey: unknown;
}

/** Catches render errors of a page or widget and shows the fallback card (spec 1 §2.13). */
export class ErrorBoundary extends Component<ErrorBoundaryProps, ErrorBoundaryState> {
  state: ErrorBoundaryState = { error: null, resetKey: this.props.resetKey };

  static getDerivedStateFromError(error: Error): Partial<ErrorBoundaryState> {
    return { error };
  }

  static getDerivedStateFromProps(props: ErrorBoundaryProps, state: ErrorBoundaryState): Partial<ErrorBoundaryState> | null {
    if (props.resetKey !== state.resetKey) return { error: null, resetKey: props.resetKey };
    return null;
  }

  componentDidCatch(error: Error, info: ErrorInfo) {
    console.error(`The ${this.props.component} encountered an unexpected error`, error, info.componentStack);
  }

  reset = () => {
    this.props.onReset?.();
    this.setState({ error: null });
  };

  render() {
    if (this.state.error) {
      return (
        <ErrorFallbackCard
          component={this.props.component}
          supportEmail={this.props.supportEmail}
          error={this.state.error}
          onReset={this.reset}
        />
      );
    }
    return this.props.children;
  }
}
